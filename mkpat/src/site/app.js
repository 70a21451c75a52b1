// mkpat html: the pattern catalogue's viewer.
//
// Reads window.KATACHI (data.js, loaded by a <script> tag because browsers
// refuse to fetch file:// URLs) and draws two views routed by the URL
// hash: the index ("#/") of every pattern as a small board with filters,
// and one pattern ("#/p/NAME") in every transformation the matcher tries,
// with its 4x4 grid masks. Boards are SVG strings; the index draws a card's
// board only when the card comes near the screen, so a database of a
// thousand patterns opens at once.
"use strict";
(function () {
  const DB = window.KATACHI;
  const P = DB.patterns;
  const $ = (id) => document.getElementById(id);
  const NORTH = 1, SOUTH = 2, WEST = 4, EAST = 8;
  // A hexagonal database's diagrams are drawn as written: rows offset by
  // half a cell, cells a space apart, side marks `\ / < >` at row ends.
  const HEX = DB.geometry === "hexagon";
  const REGION_NAMES = { centre: "centre", edge: "edge", corner: "corner" };
  // Personalities (`mkpat html --personality`): each pattern's weights
  // under each, one of them the current "player" that the cards show and
  // "next player" / "prior player" (] and [) step through.
  const PERS = DB.personalities || [];
  let player = 0;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  // ---- Boards -------------------------------------------------------------

  // A hexagonal diagram: each character of a row at column c is drawn c
  // half cells from the left; a cell is a hexagon, a side mark or a top or
  // bottom edge a thick stroke along the cell's outer side.
  function hexBoard(rows, edges, opts) {
    opts = opts || {};
    const S = 20, h = S / 2, dy = S * 0.866;
    const C = Math.max(1, ...rows.map((r) => r.length));
    const W = (C + 1) * h, H = rows.length * dy + S * 0.3;
    const px = (opts.px || 16) / S;
    let s = `<svg class="go hexagonal" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 ${W + 4} ${H + 4}" width="${Math.round((W + 4) * px)}" height="${Math.round((H + 4) * px)}" role="img" aria-label="diagram">`;
    const hexPath = (x, y) => {
      const r = S / Math.sqrt(3);
      let d = "";
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 6 + k * Math.PI / 3;
        d += `${k ? "L" : "M"}${(x + r * Math.cos(a)).toFixed(1)} ${(y + r * Math.sin(a)).toFixed(1)}`;
      }
      return d + "Z";
    };
    let cells = "", marks = "", stones = "";
    rows.forEach((row, r) => {
      const y = r * dy + h;
      for (let c = 0; c < row.length; c++) {
        const ch = row[c], x = c * h + h;
        if ("OXox.?*".includes(ch)) cells += hexPath(x, y);
        switch (ch) {
          case "O": stones += `<circle class="st-O" cx="${x}" cy="${y}" r="${0.42 * S}"/>`; break;
          case "X": stones += `<circle class="st-X" cx="${x}" cy="${y}" r="${0.42 * S}"/>`; break;
          case "o": stones += `<circle class="mk-o" cx="${x}" cy="${y}" r="${0.24 * S}"/>`; break;
          case "x": stones += `<circle class="mk-x" cx="${x}" cy="${y}" r="${0.24 * S}"/>`; break;
          case "?": stones += `<circle class="any" cx="${x}" cy="${y}" r="${0.3 * S}"/>`; break;
          case "=": stones += `<rect class="closed" x="${x - 0.3 * S}" y="${y - 0.3 * S}" width="${0.6 * S}" height="${0.6 * S}"/>`; break;
          case "*": stones += `<circle class="mv" cx="${x}" cy="${y}" r="${0.3 * S}"/><circle class="mvdot" cx="${x}" cy="${y}" r="${0.09 * S}"/>`; break;
          case "\\": marks += `M${x - h * 0.5} ${y - dy * 0.6}L${x + h * 0.5} ${y + dy * 0.6}`; break;
          case "/": marks += `M${x + h * 0.5} ${y - dy * 0.6}L${x - h * 0.5} ${y + dy * 0.6}`; break;
          case "<": marks += `M${x + h * 0.5} ${y - dy * 0.6}L${x - h * 0.3} ${y}L${x + h * 0.5} ${y + dy * 0.6}`; break;
          case ">": marks += `M${x - h * 0.5} ${y - dy * 0.6}L${x + h * 0.3} ${y}L${x - h * 0.5} ${y + dy * 0.6}`; break;
          default: break;
        }
      }
    });
    if (edges & NORTH) marks += `M0 0H${W}`;
    if (edges & SOUTH) marks += `M0 ${rows.length * dy}H${W}`;
    s += `<path class="hexcell" d="${cells}"/>`;
    if (marks) s += `<path class="edge" d="${marks}"/>`;
    return s + stones + "</svg>";
  }

  // rows: cell strings; edges: side bits; opts: {px, anchor: [r, c],
  // window: bool, labels: [[name, r, c]]}.
  function board(rows, edges, opts) {
    if (HEX) return hexBoard(rows, edges, opts);
    opts = opts || {};
    const S = 20, h = S / 2;
    const R = rows.length, C = R ? rows[0].length : 0;
    const W = C * S, H = R * S;
    let minR = 0, minC = 0, maxR = R, maxC = C;
    const a = opts.anchor;
    if (a && opts.window) {
      minR = Math.min(0, a[0] - 1); minC = Math.min(0, a[1] - 1);
      maxR = Math.max(R, a[0] + 3); maxC = Math.max(C, a[1] + 3);
    }
    const vx = minC * S - 2, vy = minR * S - 2, vw = (maxC - minC) * S + 4, vh = (maxR - minR) * S + 4;
    const px = (opts.px || 16) / S;
    let s = `<svg class="go" xmlns="http://www.w3.org/2000/svg" viewBox="${vx} ${vy} ${vw} ${vh}" width="${Math.round(vw * px)}" height="${Math.round(vh * px)}" role="img" aria-label="diagram">`;
    s += `<rect class="bg" x="0" y="0" width="${W}" height="${H}"/>`;
    const x0 = edges & WEST ? h : 0, x1 = edges & EAST ? W - h : W;
    const y0 = edges & NORTH ? h : 0, y1 = edges & SOUTH ? H - h : H;
    let d = "";
    for (let r = 0; r < R; r++) d += `M${x0} ${r * S + h}H${x1}`;
    for (let c = 0; c < C; c++) d += `M${c * S + h} ${y0}V${y1}`;
    s += `<path class="ln" d="${d}"/>`;
    let e = "";
    if (edges & NORTH) e += `M${x0} ${h}H${x1}`;
    if (edges & SOUTH) e += `M${x0} ${H - h}H${x1}`;
    if (edges & WEST) e += `M${h} ${y0}V${y1}`;
    if (edges & EAST) e += `M${W - h} ${y0}V${y1}`;
    if (e) s += `<path class="edge" d="${e}"/>`;
    if (a && opts.window) {
      s += `<rect class="window" x="${(a[1] - 1) * S}" y="${(a[0] - 1) * S}" width="${4 * S}" height="${4 * S}"/>`;
    }
    for (let r = 0; r < R; r++) {
      const row = rows[r];
      for (let c = 0; c < C; c++) {
        const x = c * S + h, y = r * S + h;
        switch (row[c]) {
          case "O": s += `<circle class="st-O" cx="${x}" cy="${y}" r="${0.44 * S}"/>`; break;
          case "X": s += `<circle class="st-X" cx="${x}" cy="${y}" r="${0.44 * S}"/>`; break;
          case "o": s += `<circle class="mk-o" cx="${x}" cy="${y}" r="${0.24 * S}"/>`; break;
          case "x": s += `<circle class="mk-x" cx="${x}" cy="${y}" r="${0.24 * S}"/>`; break;
          case "?": s += `<rect class="any" x="${c * S + 1}" y="${r * S + 1}" width="${S - 2}" height="${S - 2}" rx="3"/>`; break;
          case "=": s += `<rect class="closed" x="${x - 0.32 * S}" y="${y - 0.32 * S}" width="${0.64 * S}" height="${0.64 * S}"/>`; break;
          case "*": s += `<circle class="mv" cx="${x}" cy="${y}" r="${0.3 * S}"/><circle class="mvdot" cx="${x}" cy="${y}" r="${0.09 * S}"/>`; break;
          default: break;
        }
      }
    }
    if (a && opts.anchorMark !== false && opts.window) {
      s += `<rect class="anchor" x="${a[1] * S + 1}" y="${a[0] * S + 1}" width="${S - 2}" height="${S - 2}"/>`;
    }
    for (const [name, r, c] of opts.labels || []) {
      s += `<text class="lbl" x="${c * S + h}" y="${r * S + h}">${esc(name)}</text>`;
    }
    return s + "</svg>";
  }

  // ---- The index ------------------------------------------------------------

  const cards = $("cards");
  const state = { visible: [], sel: -1, indexScroll: 0 };

  function hitsBadge(p) {
    if (!p.hits) return "";
    if (p.hits[0] === 0) return ` <span class="badge never">never matched</span>`;
    return ` <span class="badge hits" title="${p.hits[0]} matches in ${p.hits[1]} positions">${p.hits[0]} hit${p.hits[0] === 1 ? "" : "s"}</span>`;
  }

  function cardHtml(p, i) {
    const cls = p.hits && p.hits[0] === 0 ? "card never" : "card";
    const attrs = p.five ? [
      `${esc(p.five.kind)}`,
      `mine <b>${p.five.mine}</b>`,
      `theirs <b>${p.five.theirs}</b>`,
      p.five.line ? "line" : "",
    ].filter(Boolean).join(" · ") : [
      `w <b>${p.weight}</b>`,
      p.max_weight !== p.weight ? `max <b>${p.max_weight}</b>` : "",
      `class <b>${esc(p.class || "–")}</b>`,
      p.assistance !== "0" ? esc(p.assistance) : "",
      p.helper ? `helper <b>${esc(p.helper)}</b>` : "",
      p.constraint ? "constraint" : "",
    ].filter(Boolean).join(" · ");
    return `<a class="${cls}" id="c${i}" data-i="${i}" href="#/p/${encodeURIComponent(p.name)}">` +
      `<div class="board"></div>` +
      `<div class="name">${esc(p.name)}${hitsBadge(p)}</div>` +
      `<div class="desc" title="${esc(p.description)}">${esc(p.description) || "&nbsp;"}</div>` +
      `<div class="attrs">${attrs}</div>` +
      (PERS.length ? `<div class="pw">${playerWeight(i)}</div>` : "") + `</a>`;
  }

  // The current player's weights of pattern i, as the card shows them.
  function playerWeight(i) {
    const w = PERS[player].weights[i];
    return `${esc(PERS[player].name)} <b>${w ? w.join(" / ") : "–"}</b>`;
  }

  // The weights of pattern i under the database and every personality.
  function weightsTable(i) {
    const p = P[i];
    const own = p.five ? [p.five.mine, p.five.theirs] : [p.weight];
    let s = `<h3>Weights by personality</h3><table class="attrs-table personalities"><tr><th>player</th><th>${p.five ? "mine / theirs" : "weight"}</th></tr>` +
      `<tr><td>the database</td><td>${own.join(" / ")}</td></tr>`;
    PERS.forEach((x, k) => {
      const w = x.weights[i];
      s += `<tr${k === player ? ` class="current"` : ""} title="${esc(x.description)}"><td>${esc(x.name)}</td><td>${w ? w.join(" / ") : "–"}</td></tr>`;
    });
    return s + `</table>`;
  }

  function playerBar() {
    if (!PERS.length) return "";
    return `<span class="players"><button type="button" class="prior-player" title="prior player ([)">◀ prior player</button>` +
      ` <b class="player-name" title="${esc(PERS[player].description)}">${esc(PERS[player].name)}</b> (${player + 1} of ${PERS.length}) ` +
      `<button type="button" class="next-player" title="next player (])">next player ▶</button></span>`;
  }

  function stepPlayer(d) {
    if (!PERS.length) return;
    player = (player + d + PERS.length) % PERS.length;
    $("players").innerHTML = playerBar();
    for (const el of cards.children) {
      const pw = el.querySelector(".pw");
      if (pw) pw.innerHTML = playerWeight(+el.dataset.i);
    }
    if (!$("detail").hidden && state.current) showDetail(state.current.i);
  }

  function drawCard(el) {
    const b = el.querySelector(".board");
    if (b && !b.firstChild) {
      const p = P[+el.dataset.i];
      b.innerHTML = board(p.rows, p.edges, { px: 16 });
    }
  }

  let observer = null;
  function buildIndex() {
    $("legend-closed").hidden = DB.dialect !== "five";
    $("source").textContent = `${DB.source} · ${DB.dialect} dialect · ${P.length} patterns` +
      (DB.hits ? ` · hit counts${DB.hits.positions != null ? " over " + DB.hits.positions + " positions" : ""}` : "");
    for (const p of P) {
      p._name = p.name.toLowerCase();
      p._text = [p.name, p.description, p.helper || "", p.constraint || ""].join("\n").toLowerCase();
    }
    const letters = DB.class_letters.split("").filter((l) => P.some((p) => p.class.includes(l)));
    $("f-class").insertAdjacentHTML("beforeend",
      letters.map((l) => `<option value="${esc(l)}">${esc(l)}</option>`).join("") +
      `<option value="-">none</option>`);
    if (DB.hits) $("l-hits").hidden = false;
    if (PERS.length) {
      $("top").insertAdjacentHTML("beforeend", `<div id="players">${playerBar()}</div>`);
      $("players").addEventListener("click", (ev) => {
        if (ev.target.classList.contains("next-player")) stepPlayer(1);
        else if (ev.target.classList.contains("prior-player")) stepPlayer(-1);
      });
    }
    cards.innerHTML = P.map(cardHtml).join("");
    if ("IntersectionObserver" in window) {
      observer = new IntersectionObserver((entries) => {
        for (const en of entries) {
          if (en.isIntersecting) { drawCard(en.target); observer.unobserve(en.target); }
        }
      }, { rootMargin: "600px 0px" });
      for (const el of cards.children) observer.observe(el);
    } else {
      for (const el of cards.children) drawCard(el);
    }
    for (const id of ["f-name", "f-text", "f-class", "f-wmin", "f-wmax", "f-region", "f-hits", "f-sort"]) {
      $(id).addEventListener("input", applyFilters);
    }
    $("f-clear").addEventListener("click", () => {
      for (const id of ["f-name", "f-text", "f-wmin", "f-wmax"]) $(id).value = "";
      for (const id of ["f-class", "f-region", "f-hits"]) $(id).value = "";
      $("f-sort").value = "table";
      applyFilters();
    });
    applyFilters();
  }

  function num(id) {
    const v = $(id).value.trim();
    return v === "" || isNaN(+v) ? null : +v;
  }

  let lastSort = "table";
  function applyFilters() {
    const name = $("f-name").value.trim().toLowerCase();
    const text = $("f-text").value.trim().toLowerCase();
    const cls = $("f-class").value, region = $("f-region").value, hits = $("f-hits").value;
    const wmin = num("f-wmin"), wmax = num("f-wmax");
    const ok = (p) =>
      (!name || p._name.includes(name)) &&
      (!text || p._text.includes(text)) &&
      (!cls || (cls === "-" ? p.class === "" : p.class.includes(cls))) &&
      (wmin === null || p.weight >= wmin) &&
      (wmax === null || p.weight <= wmax) &&
      (!region || p.region === region) &&
      (!hits || !p.hits || (hits === "never") === (p.hits[0] === 0));
    const sort = $("f-sort").value;
    let order = P.map((_, i) => i);
    if (sort === "name") order.sort((a, b) => P[a].name.localeCompare(P[b].name, undefined, { numeric: true }));
    else if (sort === "line") order.sort((a, b) => P[a].line - P[b].line);
    else if (sort === "hits") order.sort((a, b) => ((P[b].hits || [0])[0] - (P[a].hits || [0])[0]) || a - b);
    if (sort !== lastSort) {
      const frag = document.createDocumentFragment();
      for (const i of order) frag.appendChild($("c" + i));
      cards.appendChild(frag);
      lastSort = sort;
    }
    state.visible = [];
    for (const i of order) {
      const show = ok(P[i]);
      const el = $("c" + i);
      if (el.hidden === show) el.hidden = !show;
      if (show) state.visible.push(i);
    }
    select(-1);
    $("count").textContent = `${state.visible.length} of ${P.length} patterns`;
  }

  function select(k) {
    const old = cards.querySelector(".card.sel");
    if (old) old.classList.remove("sel");
    state.sel = k;
    if (k >= 0 && k < state.visible.length) {
      const el = $("c" + state.visible[k]);
      el.classList.add("sel");
      drawCard(el);
      el.scrollIntoView({ block: "nearest" });
    }
  }

  // ---- One pattern ------------------------------------------------------------

  function maskCells(and, val) {
    const out = [];
    for (let k = 0; k < 16; k++) {
      const sh = 30 - 2 * k;
      const a = (and >>> sh) & 3, v = (val >>> sh) & 3;
      let req = "·";
      if (a === 3) req = [".", "O", "X", "#"][v];
      else if (a === 2 && v === 0) req = "o";
      else if (a === 1 && v === 0) req = "x";
      else if (a !== 0) req = "!";
      out.push({ a, v, req });
    }
    return out;
  }

  function maskTable(cells, what, caption) {
    let s = `<table class="mask"><caption>${caption}</caption>`;
    for (let r = 0; r < 4; r++) {
      s += "<tr>";
      for (let c = 0; c < 4; c++) {
        const x = cells[r * 4 + c];
        if (what === "req") s += `<td class="req">${esc(x.req)}</td>`;
        else s += `<td>${(what === "and" ? x.a : x.v).toString(2).padStart(2, "0")}</td>`;
      }
      s += "</tr>";
    }
    return s + "</table>";
  }

  const hex = (n) => "0x" + (n >>> 0).toString(16).padStart(8, "0");
  const sideNames = HEX
    ? (b) => ["top", "bottom", "lower left", "upper right", "upper left", "lower right"].filter((_, k) => b & (1 << k)).join(", ") || "none"
    : (b) => ["north", "south", "west", "east"].filter((_, k) => b & (1 << k)).join(", ") || "none";

  function showDetail(i) {
    const p = P[i];
    const list = state.visible.includes(i) ? state.visible : P.map((_, k) => k);
    const k = list.indexOf(i);
    state.current = { i, list, k };
    const ar = p.anchor_at;
    const labels = p.labels.map(([n, di, dj]) => [n, ar[0] + di, ar[1] + dj]);
    const rowsAttr = p.five ? [
      ["kind", p.five.kind],
      ["mine (the side to move makes it)", p.five.mine],
      ["theirs (taking the point stops it)", p.five.theirs],
      ["max weight", p.max_weight],
      ["symmetry", p.five.line ? "line: every line direction, both ways" : p.symmetry],
      ["anchor", `${p.anchor} (the first stone in reading order)`],
      ["move", `(${p.move_at[0]}, ${p.move_at[1]}) from the anchor`],
      ["edges", sideNames(p.edges)],
      ["elements", p.elements],
      ["source line", p.line],
    ] : [
      ["weight", p.weight],
      ["max weight", p.max_weight],
      ["bonus · xbonus · splitbonus", p.bonuses.slice(0, 3).join(" · ")],
      ["minrand · maxrand", p.bonuses.slice(3).join(" · ")],
      ["assistance", p.assistance],
      ["class", p.class || "none"],
      ["symmetry", p.symmetry],
      ["helper", p.helper || "none"],
      ["anchor", `${p.anchor} (the first stone in reading order)`],
      ["move", `(${p.move_at[0]}, ${p.move_at[1]}) from the anchor`],
      ["edges", sideNames(p.edges)],
      ["where", REGION_NAMES[p.region]],
      ["elements", p.elements],
      ["source line", p.line],
    ];
    if (p.hits) rowsAttr.push(["hits", p.hits[0] === 0 ? "never matched" : `${p.hits[0]} matches in ${p.hits[1]} positions`]);
    let s = `<nav><a href="#/">← all patterns</a>` +
      `<button type="button" id="prior" title="prior (k or ←)">◀ prior</button>` +
      `<button type="button" id="next" title="next (j or →)">next ▶</button>` +
      `<span class="pos">${k + 1} of ${list.length}</span></nav>`;
    s += `<h2>Pattern ${esc(p.name)}${hitsBadge(p)}</h2>`;
    if (PERS.length) s += weightsTable(i);
    if (p.description) s += `<p class="description">${esc(p.description)}</p>`;
    s += `<div class="top"><div class="big">${board(p.rows, p.edges, { px: 30, labels })}</div>`;
    s += `<table class="attrs-table">${rowsAttr.map(([a, b]) => `<tr><td>${esc(a)}</td><td>${esc(b)}</td></tr>`).join("")}</table></div>`;
    if (p.constraint) {
      s += `<h3>Constraint</h3><pre class="constraint">${esc(p.constraint)}</pre>`;
      if (p.labels.length) s += `<p>labels: ${p.labels.map(([n, di, dj]) => `${esc(n)} at (${di}, ${dj})`).join(", ")}</p>`;
    }
    s += `<h3>The matcher tries ${p.transformations.length} transformation${p.transformations.length === 1 ? "" : "s"}</h3>`;
    s += HEX
      ? `<p class="legend">A hexagonal board is stored in axial coordinates: the 4x4 window of the grid masks, from (−1, −1) to (+2, +2) around the anchor, is a parallelogram of cells on the board. A window matches when <code>board &amp; and_mask == val_mask</code>, two bits a point: empty 00, O 01, X 10, off board 11.</p>`
      : `<p class="legend">The dashed square is the 4x4 window of the grid masks, from (−1, −1) to (+2, +2) around the anchor (blue). A window matches when <code>board &amp; and_mask == val_mask</code>, two bits a point: empty 00, O 01, X 10, off board 11.</p>`;
    s += `<div class="transformations">`;
    for (const t of p.transformations) {
      const a = [-t.extent[0], -t.extent[1]];
      const cells = maskCells(t.and_mask, t.val_mask);
      s += `<div class="trans" data-trans="${t.trans}"><h3>${t.trans}: ${esc(t.name)}</h3><div class="row">` +
        board(t.rows, t.edges, { px: 18, anchor: a, window: true }) +
        maskTable(cells, "req", "requires") + maskTable(cells, "and", "and") + maskTable(cells, "val", "val") +
        `</div><div class="hex">and_mask ${hex(t.and_mask)} · val_mask ${hex(t.val_mask)} · move (${t.move_at[0]}, ${t.move_at[1]}) · edges ${sideNames(t.edges)}</div></div>`;
    }
    s += `</div>`;
    const det = $("detail");
    det.innerHTML = s;
    $("prior").addEventListener("click", () => step(-1));
    $("next").addEventListener("click", () => step(1));
    document.title = `Pattern ${p.name} — ${DB.source}`;
  }

  function step(d) {
    const c = state.current;
    if (!c || !c.list.length) return;
    const k = (c.k + d + c.list.length) % c.list.length;
    location.hash = "#/p/" + encodeURIComponent(P[c.list[k]].name);
  }

  // ---- Routing and keys ---------------------------------------------------------

  const byName = new Map(P.map((p, i) => [p.name, i]));
  function route() {
    const m = /^#\/p\/(.*)$/.exec(location.hash);
    const i = m ? byName.get(decodeURIComponent(m[1])) : undefined;
    const index = $("index"), detail = $("detail");
    if (i !== undefined) {
      if (!index.hidden) state.indexScroll = window.scrollY;
      index.hidden = true;
      $("filters").hidden = true;
      detail.hidden = false;
      showDetail(i);
      window.scrollTo(0, 0);
    } else {
      const wasDetail = !detail.hidden;
      detail.hidden = true;
      detail.innerHTML = "";
      index.hidden = false;
      $("filters").hidden = false;
      document.title = `${DB.source} — pattern catalogue`;
      if (wasDetail) {
        window.scrollTo(0, state.indexScroll);
        if (state.current) select(state.visible.indexOf(state.current.i));
      }
    }
  }

  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape") ev.target.blur();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (PERS.length && (ev.key === "]" || ev.key === "[")) {
      stepPlayer(ev.key === "]" ? 1 : -1);
      ev.preventDefault();
      return;
    }
    const inDetail = !$("detail").hidden;
    const next = ev.key === "j" || ev.key === "ArrowRight" || (!inDetail && ev.key === "ArrowDown");
    const prior = ev.key === "k" || ev.key === "ArrowLeft" || (!inDetail && ev.key === "ArrowUp");
    if (inDetail) {
      if (next) step(1);
      else if (prior) step(-1);
      else if (ev.key === "Escape" || ev.key === "i") location.hash = "#/";
      else return;
    } else {
      const n = state.visible.length;
      if (next && n) select(state.sel < 0 ? 0 : Math.min(state.sel + 1, n - 1));
      else if (prior && n) select(state.sel <= 0 ? 0 : state.sel - 1);
      else if (ev.key === "Enter" && state.sel >= 0) location.hash = "#/p/" + encodeURIComponent(P[state.visible[state.sel]].name);
      else if (ev.key === "/") $("f-text").focus();
      else return;
    }
    ev.preventDefault();
  });

  buildIndex();
  window.addEventListener("hashchange", route);
  route();
  window.KATACHI_READY_MS = Math.round(performance.now());
  document.body.dataset.ready = "1";
})();
