// The verification page of a revealed hidden roll (webapp/receipts.py): the browser itself
// hashes the revealed text with SHA-256 and compares it with the receipt.
const $ = (id) => document.getElementById(id);

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function check(roll, texts) {
  const status = $("status");
  status.hidden = false;
  if (!globalThis.crypto?.subtle) {
    status.textContent = texts.unsupported;
    status.className = "status bad";
    return;
  }
  const computed = await sha256($("payload").value);
  const ok = computed === roll.receipt;
  $("computed").textContent = computed;
  status.textContent = ok ? texts.match : texts.mismatch;
  status.className = ok ? "status ok" : "status bad";
  status.dataset.result = ok ? "match" : "mismatch";
}

async function main() {
  const lang = new URLSearchParams(location.search).get("lang");
  const url = location.pathname + ".json" + (lang ? "?lang=" + encodeURIComponent(lang) : "");
  const answer = await fetch(url);
  if (!answer.ok) {
    $("title").textContent = "404";
    return;
  }
  const { locale, texts, roll } = await answer.json();
  document.documentElement.lang = locale;
  document.title = texts.title;
  for (const key of ["title", "who"]) $(key).textContent = texts[key];
  for (const key of ["code", "receipt", "payload", "computed", "terminal"]) {
    $(key + "-label").textContent = texts[key];
  }
  $("code").textContent = roll.code;
  $("receipt").textContent = roll.receipt;
  $("payload").value = roll.payload;
  $("command").textContent = roll.command;
  $("payload").addEventListener("input", () => check(roll, texts));
  await check(roll, texts);
}

main();
