// The page's words in its language. The server's gettext catalogs hold them: messages marked
// here with _() (or N_() for words looked up later) are extracted with the Python code's and
// templates', and the page carries this client's own, keyed by the English text, as data
// (base.html's #messages: nothing to fetch before the page is drawn; /api/i18n/<lang>.json
// answers the same). English needs none: the English text is the key.

const root = document.documentElement;

export const lang = root.lang || "en";

const sent = document.getElementById("messages");
const messages = sent ? JSON.parse(sent.textContent) : {};

// `msgid` in the page's language, its %(name)s filled from `values` (names stay as typed).
export function _(msgid, values = null) {
  const text = (Object.hasOwn(messages, msgid) && messages[msgid]) || msgid;
  if (!values) return text;
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// Marks a message for extraction; it is translated where it is shown, with _().
export const N_ = (msgid) => msgid;

// The switcher's links keep this turn's steps (the page's address after #).
for (const link of document.querySelectorAll("#langs a[data-lang]")) {
  link.addEventListener("click", () => {
    link.href = link.href.split("#")[0] + location.hash;
  });
}
