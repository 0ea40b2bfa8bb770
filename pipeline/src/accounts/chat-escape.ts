// Upstream and user text (county and utility names, causes, rule names) made inert for each chat service (issue 24:
// an upstream name reached Slack as `<!channel> <https://evil.example|click here>`). Each service's own escaping:
// Slack's mrkdwn control characters are `&`, `<` and `>` (mentions, links and commands all need `<`); Discord and
// Teams read markdown, so its characters get a backslash, and Teams also reads HTML (`<at>` mentions included).
// Bare `@channel`, `@here` and `@everyone` get a word joiner after the `@`, so no service reads them as a mention.

const BROADCAST = /@(channel|here|everyone)\b/gi;
const unmention = (s: string) => s.replace(BROADCAST, '@\u2060$1');

/** Slack mrkdwn (and the plain `text` fallback, which Slack parses the same way). */
export const slackText = (s: string): string =>
  unmention(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));

/** A URL inside Slack's `<url|label>`: `|` and `>` would end it early. */
export const slackUrl = (url: string): string => url.replace(/[|>]/g, (ch) => encodeURIComponent(ch));

const MARKDOWN = /[\\`*_~|>#[\]()<@-]/g;

/** Discord markdown: every character that formats, links, quotes or mentions is escaped with a backslash. */
export const discordText = (s: string): string =>
  s.replace(MARKDOWN, (ch) => `\\${ch}`).replace(BROADCAST, '@\u2060$1');

// Only what makes a tag or an entity: quotes matter inside attribute values alone, which card text never is, and
// Teams shows a numeric reference such as `&#39;` as written (issue 37: "Prince George&#39;s").
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Teams MessageCard text: HTML escaped (no `<at>`, no tags, no entity of upstream's), then markdown escaped. */
export const teamsText = (s: string): string =>
  unmention(s.replace(/[&<>]/g, (ch) => HTML[ch]).replace(/[\\`*_~[\]()#-]/g, (ch) => `\\${ch}`));
