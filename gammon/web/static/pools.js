"use strict";
// The lobby's quick pairing (/api/pools): join a pool, wait for a seat (asking again and
// again: each ask waits on the server), leave, or take the bot offered after the wait
// chosen. The ticket is kept in this page only; the seat's link comes back with it.
const pooling = { ticket: null };

function poolLabel(pool) {
  const length = pool.kind === "match" ? t("pools.match", { length: pool.length }) : t("pools.game");
  const clock = t("pools.clock", { delay: pool.clock.delay, minutes: Math.round(pool.clock.reserve / 60) });
  return t("pools.option", { variant: serverWord("variant", pool.variant), length, clock,
    rated: t(pool.rated ? "pools.rated" : "pools.casual"), waiting: pool.waiting });
}

async function showPools() {
  const answer = await fetch("/api/pools");
  if (!answer.ok) return;
  const choice = $("pool-choice");
  const chosen = choice.value;
  choice.replaceChildren();
  for (const pool of await answer.json()) {
    const option = document.createElement("option");
    option.value = pool.id;
    option.textContent = poolLabel(pool);
    choice.appendChild(option);
  }
  choice.value = chosen || "backgammon-match3-casual";
}

function waitingShown(waiting) {
  $("pool-join").hidden = waiting;
  $("pool-choice").disabled = $("bot-after").disabled = waiting;
  $("pool-leave").hidden = !waiting;
  if (!waiting) $("pool-bot").hidden = true;
}

async function poolCall(path, body) {
  const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error);
  return data;
}

async function seatedAt(data) {
  $("pool-status").textContent = t("pools.seated");
  pooling.ticket = null;
  location.href = data.url;
}

async function waitForSeat(ticket) {
  while (pooling.ticket === ticket) {
    let data;
    try {
      data = await poolCall("/api/pools/wait", { ticket });
    } catch (error) {
      if (pooling.ticket === ticket) $("pool-error").textContent = error.message;
      pooling.ticket = null;
      waitingShown(false);
      return;
    }
    if (pooling.ticket !== ticket) return;
    if (data.status === "seated") return seatedAt(data);
    $("pool-status").textContent = data.bot ? t("pools.bot_ready")
      : t("pools.waiting", { waited: Math.round(data.waited), window: data.window });
    $("pool-bot").hidden = !data.bot;
  }
}

$("pools").onsubmit = async (event) => {
  event.preventDefault();
  $("pool-error").textContent = "";
  try {
    const data = await poolCall("/api/pools/join", { pool: $("pool-choice").value, bot_after: Number($("bot-after").value) });
    if (data.status === "seated") return seatedAt(data);
    pooling.ticket = data.ticket;
    waitingShown(true);
    $("pool-status").textContent = t("pools.waiting", { waited: 0, window: 100 });
    waitForSeat(data.ticket);
  } catch (error) {
    $("pool-error").textContent = error.message;
  }
};

$("pool-leave").onclick = async () => {
  const ticket = pooling.ticket;
  pooling.ticket = null;
  waitingShown(false);
  try {
    const data = await poolCall("/api/pools/leave", { ticket });
    if (data.status === "seated") return seatedAt(data);  // paired a moment before
    $("pool-status").textContent = t("pools.left");
  } catch (error) {
    $("pool-error").textContent = error.message;
  }
};

$("pool-bot").onclick = async () => {
  const ticket = pooling.ticket;
  pooling.ticket = null;
  try {
    seatedAt(await poolCall("/api/pools/bot", { ticket }));
  } catch (error) {
    $("pool-error").textContent = error.message;
    waitingShown(false);
  }
};

i18n.ready.then(() => { showPools(); setInterval(() => { if (!pooling.ticket) showPools(); }, 10000); });
