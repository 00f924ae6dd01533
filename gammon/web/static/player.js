"use strict";
// A player's page (/u/NAME): ratings with their graphs, results against the bots, and the
// games, searched. Everything the server sends is shown as text (textContent), never
// parsed as HTML; the graph is drawn with SVG elements made one by one.
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const name = decodeURIComponent(location.pathname.split("/")[2] || "");
let next = null;

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function emptyRow(body, text, span) {
  const row = document.createElement("tr");
  const td = cell(text);
  td.colSpan = span;
  td.className = "muted";
  row.appendChild(td);
  body.appendChild(row);
}

function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(i18n.language);
}

function poolName(pool) {
  const [game, kind] = pool.split(":");
  const shown = serverWord("variant", game);
  return kind.startsWith("match") ? t("ratings.pool.match", { variant: shown, length: kind.slice(5) })
    : t("ratings.pool.game", { variant: shown });
}

// The rating after each rated result, as a line (the oldest on the left).
function graph(history) {
  const width = 220, height = 48, pad = 4;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.classList.add("graph");
  const values = history.map((point) => Number(point.rating));
  if (!values.length) return svg;
  const low = Math.min(...values), high = Math.max(...values), span = Math.max(high - low, 1);
  const points = values.map((value, i) => [
    values.length > 1 ? pad + (i * (width - 2 * pad)) / (values.length - 1) : width / 2,
    height - pad - ((value - low) * (height - 2 * pad)) / span - (high === low ? height / 2 - pad : 0)]);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#8a4b1f");
  line.setAttribute("stroke-width", "2");
  // The rating now, marked.
  const [x, y] = points[points.length - 1];
  const now = document.createElementNS(SVG, "circle");
  now.setAttribute("cx", x.toFixed(1));
  now.setAttribute("cy", y.toFixed(1));
  now.setAttribute("r", "3");
  now.setAttribute("fill", "#8a4b1f");
  const title = document.createElementNS(SVG, "title");
  title.textContent = t("player.graph_title", { low: Math.round(low), high: Math.round(high), games: values.length });
  svg.append(title, line, now);
  return svg;
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function gameRow(game) {
  const row = document.createElement("tr");
  const kind = game.kind === "match" ? t("player.match", { length: game.length }) : "";
  row.appendChild(cell(day(game.at)));
  row.appendChild(cell(`${serverWord("variant", game.game)} ${kind}`.trim() + (game.rated ? ` · ${t("create.rated")}` : "")));
  const opponents = document.createElement("td");
  game.opponents.forEach((opponent, i) => {
    if (i) opponents.append(", ");
    if (opponent.account) opponents.appendChild(link(`/u/${encodeURIComponent(opponent.name)}`, opponent.name));
    else opponents.append(opponent.bot ? t("player.bot", { level: serverWord("level", opponent.name) }) : (opponent.name || t("player.guest")));
  });
  row.appendChild(opponents);
  row.appendChild(cell(game.result ? t(`player.${game.result}`) : (game.status === "archived" ? t("player.unfinished") : "")));
  const links = document.createElement("td");
  links.appendChild(link(game.links.table, t("player.table")));
  for (const [key, label] of [["review", "player.review"], ["record", "player.record"], ["mat", "player.mat"]]) {
    if (!game.links[key]) continue;
    links.append(" · ");
    links.appendChild(link(game.links[key], t(label)));
  }
  row.appendChild(links);
  return row;
}

function showGames(games, more, fresh) {
  const body = $("games");
  if (fresh) body.replaceChildren();
  for (const game of games) body.appendChild(gameRow(game));
  if (!body.children.length) emptyRow(body, t("player.no_games"), 5);
  next = more;
  $("more").hidden = !more;
}

function searchQuery() {
  const query = new URLSearchParams();
  for (const [id, key] of [["opponent", "opponent"], ["game", "game"], ["from", "since"], ["to", "until"]]) {
    const value = $(id).value.trim();
    if (value) query.set(key, value);
  }
  return query;
}

async function search(fresh) {
  const query = searchQuery();
  if (!fresh && next) query.set("before", next);
  const answer = await fetch(`/api/players/${encodeURIComponent(name)}/games?${query}`);
  const data = await answer.json();
  $("search-error").textContent = answer.ok ? "" : data.error;
  if (answer.ok) showGames(data.games, data.next, fresh);
}

async function load() {
  await i18n.ready;
  $("player").textContent = name;
  document.title = `${name} · gammon`;
  const answer = await fetch(`/api/players/${encodeURIComponent(name)}`);
  const data = await answer.json();
  if (!answer.ok) {
    $("error").textContent = data.error;
    return;
  }
  $("player").textContent = data.name;
  $("since").textContent = t("player.joined", { day: day(data.since) });
  const ratings = $("ratings");
  for (const [pool, standing] of Object.entries(data.ratings)) {
    const row = document.createElement("tr");
    row.appendChild(cell(poolName(pool)));
    row.appendChild(cell(`${Math.round(standing.rating)} ± ${Math.round(2 * standing.deviation)}${standing.provisional ? "?" : ""}`));
    row.appendChild(cell(String(standing.games)));
    const shown = document.createElement("td");
    shown.appendChild(graph(standing.history));
    row.appendChild(shown);
    ratings.appendChild(row);
  }
  if (!ratings.children.length) emptyRow(ratings, t("player.no_ratings"), 4);
  const bots = $("bots");
  for (const entry of data.bots) {
    const row = document.createElement("tr");
    for (const text of [serverWord("variant", entry.game), serverWord("level", entry.level), entry.won, entry.lost]) row.appendChild(cell(String(text)));
    bots.appendChild(row);
  }
  if (!bots.children.length) emptyRow(bots, t("player.no_bots"), 4);
  const games = await (await fetch("/api/variants")).json();
  for (const variant of games) {
    const option = document.createElement("option");
    option.value = variant.name;
    option.textContent = serverWord("variant", variant.name);
    $("game").appendChild(option);
  }
  showGames(data.games, data.next, true);
}

$("search").onsubmit = (event) => { event.preventDefault(); search(true); };
$("more").onclick = () => search(false);
load();
