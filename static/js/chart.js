// A small SVG line chart (no library): several series over one shared x (event order) and
// y (1500-centred points) axis, with a legend and a tooltip title on every point.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Round tick values across [lo, hi]: about ``count`` of them at a 1/2/5 step. */
function ticks(lo, hi, count = 5) {
  const raw = (hi - lo) / count || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 100) / 100);
  return out;
}

/** lineChart([{name, color, points: [{x, y, label}], dashed}], {width, height, xLabel}) -> <svg>.
 * x values are shared whole-number positions; a series may skip some. */
export function lineChart(series, { width = 640, height = 260, xLabel = "" } = {}) {
  const pad = { left: 48, right: 14, top: 14, bottom: 40 };
  const all = series.flatMap((s) => s.points);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": "rating history chart" });
  if (!all.length) {
    svg.append(el("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "chart-empty" }, "No rated games yet"));
    return svg;
  }
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const xMin = Math.min(...xs), xMax = Math.max(...xs);
  let yMin = Math.min(...ys), yMax = Math.max(...ys);
  const margin = Math.max(10, (yMax - yMin) * 0.1);
  yMin -= margin; yMax += margin;
  const sx = (x) => pad.left + (xMax === xMin ? (width - pad.left - pad.right) / 2 : ((x - xMin) / (xMax - xMin)) * (width - pad.left - pad.right));
  const sy = (y) => pad.top + (1 - (y - yMin) / (yMax - yMin)) * (height - pad.top - pad.bottom);
  const grid = el("g", { class: "chart-grid" });
  for (const t of ticks(yMin, yMax)) {
    grid.append(el("line", { x1: pad.left, x2: width - pad.right, y1: sy(t), y2: sy(t) }));
    grid.append(el("text", { x: pad.left - 6, y: sy(t) + 4, "text-anchor": "end" }, String(t)));
  }
  for (const t of ticks(xMin, xMax, Math.min(8, xMax - xMin || 1)).filter((v) => Number.isInteger(v))) {
    grid.append(el("text", { x: sx(t), y: height - pad.bottom + 16, "text-anchor": "middle" }, String(t)));
  }
  if (xLabel) grid.append(el("text", { x: (pad.left + width - pad.right) / 2, y: height - 6, "text-anchor": "middle", class: "chart-axis" }, xLabel));
  svg.append(grid);
  for (const s of series) {
    if (!s.points.length) continue;
    const g = el("g", { class: "chart-series", "data-series": s.name });
    const d = s.points.map((p, i) => `${i ? "L" : "M"}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(" ");
    g.append(el("path", { d, fill: "none", stroke: s.color, "stroke-width": 2.5, "stroke-dasharray": s.dashed ? "6 4" : "none", "stroke-linejoin": "round" }));
    for (const p of s.points) {
      const dot = el("circle", { cx: sx(p.x), cy: sy(p.y), r: 3.5, fill: s.color, stroke: "#15101b", "stroke-width": 1.5 });
      dot.append(el("title", {}, `${s.name}: ${p.y}${p.label ? ` — ${p.label}` : ""}`));
      g.append(dot);
    }
    svg.append(g);
  }
  let lx = pad.left + 4;
  const legend = el("g", { class: "chart-legend" });
  for (const s of series) {
    if (!s.points.length) continue;
    legend.append(el("rect", { x: lx, y: pad.top - 4, width: 12, height: 4, fill: s.color }));
    const label = el("text", { x: lx + 16, y: pad.top }, s.name);
    legend.append(label);
    lx += 28 + s.name.length * 7;
  }
  svg.append(legend);
  return svg;
}
