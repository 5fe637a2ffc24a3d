# One C file against node_api.h only: the .node file is ABI-stable, so the same build
# loads in Node and in Electron. Windows has no SCM_RIGHTS: nothing is built there, the
# loader fails and Verdict streams files to clamd instead (INSTREAM).
{
  'targets': [
    {
      'target_name': 'fdpass',
      'conditions': [
        ['OS=="win"', { 'type': 'none' }, {
          'sources': ['src/fdpass.c'],
          'cflags': ['-Wall', '-Wextra', '-Werror', '-std=c11', '-D_GNU_SOURCE'],
          'xcode_settings': { 'OTHER_CFLAGS': ['-Wall', '-Wextra', '-Werror'] },
        }],
      ],
    },
  ],
}
