; Windows integration added to electron-builder's NSIS installer (nsis.include):
; "Scan with Verdict" on the Explorer context menu of every file and folder, and a
; "Send To" shortcut. Verdict never becomes the default program for a file type.

!macro customInstall
  WriteRegStr SHCTX "Software\Classes\*\shell\VerdictScan" "" "Scan with Verdict"
  WriteRegStr SHCTX "Software\Classes\*\shell\VerdictScan" "Icon" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\*\shell\VerdictScan\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
  WriteRegStr SHCTX "Software\Classes\Directory\shell\VerdictScan" "" "Scan with Verdict"
  WriteRegStr SHCTX "Software\Classes\Directory\shell\VerdictScan" "Icon" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\Directory\shell\VerdictScan\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
  CreateShortCut "$SENDTO\Verdict.lnk" "$INSTDIR\${APP_EXECUTABLE_FILENAME}"
!macroend

!macro customUnInstall
  DeleteRegKey SHCTX "Software\Classes\*\shell\VerdictScan"
  DeleteRegKey SHCTX "Software\Classes\Directory\shell\VerdictScan"
  Delete "$SENDTO\Verdict.lnk"
!macroend
