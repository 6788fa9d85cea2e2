// The verification page of a revealed hidden roll (webapp/receipts.py) or a system's sealed
// turn (its ReceiptCheck, webapp/systems/registry.py): the browser itself hashes the revealed
// text with SHA-256 and compares it with the receipt; for a turn whose dice come from a committed
// seed it also checks the seed against the hash the topic got before anyone chose, and every die
// of the submission against the seed and both sealed receipts (the text each die's HMAC is of
// is built here, not taken from the server).
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

async function hmacFace(seed, message, sides) {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)));
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
  return Number(BigInt("0x" + hex) % BigInt(sides)) + 1; // the engine's seeded_face
}

async function checkDice(dice, roll, texts) {
  $("dice").hidden = false;
  $("dice-title").textContent = texts.dice_title;
  $("dice-seed-label").textContent = texts.dice_seed;
  $("dice-hash-label").textContent = texts.dice_hash;
  $("dice-rule").textContent = texts.dice_rule;
  $("dice-seed").textContent = dice.seed;
  $("dice-hash").textContent = dice.hash;
  if (dice.receipts) {
    $("dice-receipts-block").hidden = false;
    $("dice-receipts-label").textContent = texts.dice_receipts;
    $("dice-receipt-a").textContent = dice.receipts[0];
    $("dice-receipt-b").textContent = dice.receipts[1];
  }
  const status = $("dice-status");
  if (!globalThis.crypto?.subtle) {
    status.textContent = texts.unsupported;
    status.className = "status bad";
    return;
  }
  let ok = (await sha256(dice.seed)) === dice.hash;
  // the dice are mixed with both sealed receipts, this page's own among them
  if (dice.receipts) ok = ok && dice.receipts.includes(roll.receipt);
  const list = $("dice-items");
  for (const item of dice.items) {
    const message = [dice.turn, dice.fighter, item.slot, ...(dice.receipts || [])].join("|");
    const face = await hmacFace(dice.seed, message, item.sides);
    const li = document.createElement("li");
    li.textContent = `${message} · d${item.sides}: ${item.face} ${face === item.face ? "✓" : "✗ " + face}`;
    list.append(li);
    ok = ok && face === item.face;
  }
  status.textContent = ok ? texts.dice_match : texts.dice_mismatch;
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
  const { locale, texts, roll, dice } = await answer.json();
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
  if (dice) await checkDice(dice, roll, texts);
}

main();
