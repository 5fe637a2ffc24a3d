// Well-known free signature feeds, offered ready to switch on (off until the user turns them on).
// URLs as fangfrisch and clamav-unofficial-sigs fetch them; each with the page of its terms.

export interface FeedPreset {
  id: string;
  name: string;
  urls: string[];
  licence: string;
}

const SANESECURITY = 'https://mirror.rollernet.us/sanesecurity/';

export const FEED_PRESETS: readonly FeedPreset[] = [
  {
    id: 'urlhaus',
    name: 'URLhaus (abuse.ch): malware URLs',
    urls: ['https://urlhaus.abuse.ch/downloads/urlhaus.ndb'],
    licence: 'https://urlhaus.abuse.ch/api/#tos',
  },
  {
    id: 'sanesecurity-phishing',
    name: 'Sanesecurity: phishing, scam and spam',
    urls: ['junk.ndb', 'jurlbl.ndb', 'phish.ndb', 'scam.ndb', 'spamimg.hdb', 'spamattach.hdb', 'blurl.ndb'].map((file) => SANESECURITY + file),
    licence: 'https://sanesecurity.com/usage/signatures/',
  },
  {
    id: 'sanesecurity-malware',
    name: 'Sanesecurity: malware and bad macros',
    urls: ['badmacro.ndb', 'rogue.hdb', 'malwarehash.hsb', 'winnow_malware.hdb', 'winnow_malware_links.ndb'].map((file) => SANESECURITY + file),
    licence: 'https://sanesecurity.com/usage/signatures/',
  },
];
