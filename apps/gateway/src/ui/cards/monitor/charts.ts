/**
 * The monitor's canvases (./main.ts): a canvas sized to its box in device pixels (the ECG sweep and
 * the trends), and a trend chart (SpO2, blood pressure): its grid with the values named, the
 * window's start and end on a 24-hour clock, each series as a line with its points.
 */
import { clockSeconds } from '../shared/time';

/** One value of a trend: when (ms) and what. */
export interface Point {
  t: number;
  v: number;
}

/** Sizes the canvas to its box in device pixels; true when it changed (its drawing is gone). */
export function fitCanvas(c: HTMLCanvasElement): boolean {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(c.clientWidth * dpr)),
    h = Math.max(1, Math.round(c.clientHeight * dpr));
  if (c.width !== w || c.height !== h) {
    c.width = w;
    c.height = h;
    return true;
  }
  return false;
}
/** Adds a value to a trend, in time order, keeping the last 720. */
export function trendPush(arr: Point[], o: { effective_at: string; value: number }): void {
  arr.push({ t: Date.parse(o.effective_at), v: o.value });
  arr.sort((a, b) => a.t - b.t);
  if (arr.length > 720) arr.splice(0, arr.length - 720);
}
export function drawTrend(
  canvas: HTMLCanvasElement,
  series: Array<{ points: Point[]; colour: string }>,
  lo: number,
  hi: number,
  gridAt: number[],
): void {
  fitCanvas(canvas);
  const c = canvas.getContext('2d');
  if (!c) return;
  const W = canvas.width,
    H = canvas.height,
    dpr = window.devicePixelRatio || 1;
  c.fillStyle = '#0b0f14';
  c.fillRect(0, 0, W, H);
  let all: Point[] = [];
  series.forEach((s) => {
    all = all.concat(s.points);
  });
  const left = 34 * dpr;
  c.font = 11 * dpr + 'px system-ui, sans-serif';
  c.fillStyle = '#9fb0c0';
  c.strokeStyle = '#24303c';
  c.lineWidth = 1;
  gridAt.forEach((g) => {
    const y = H - ((g - lo) / (hi - lo)) * H;
    c.beginPath();
    c.moveTo(left, y);
    c.lineTo(W, y);
    c.stroke();
    c.fillText(String(g), 2 * dpr, Math.min(H - 2, Math.max(10 * dpr, y + 4 * dpr)));
  });
  if (!all.length) return;
  const tMax = Math.max.apply(
    null,
    all.map((p) => p.t),
  );
  const tMin = Math.min(
    tMax - 60000,
    Math.min.apply(
      null,
      all.map((p) => p.t),
    ),
  );
  const span = Math.max(1, tMax - tMin);
  // time axis: the window's start and end (24-hour HH:MM:SS), bottom corners
  c.fillStyle = '#9fb0c0';
  const t0 = clockSeconds(new Date(tMin).toISOString()),
    t1 = clockSeconds(new Date(tMax).toISOString());
  c.fillText(t0, left + 4 * dpr, H - 3 * dpr);
  c.fillText(t1, W - c.measureText(t1).width - 4 * dpr, H - 3 * dpr);
  series.forEach((s) => {
    c.strokeStyle = s.colour;
    c.fillStyle = s.colour;
    c.lineWidth = 2 * dpr;
    c.beginPath();
    s.points.forEach((p, i) => {
      const px = left + 4 * dpr + ((p.t - tMin) / span) * (W - left - 10 * dpr);
      const py = H - ((Math.max(lo, Math.min(hi, p.v)) - lo) / (hi - lo)) * H;
      if (i === 0) c.moveTo(px, py);
      else c.lineTo(px, py);
    });
    c.stroke();
    s.points.forEach((p) => {
      const px = left + 4 * dpr + ((p.t - tMin) / span) * (W - left - 10 * dpr);
      const py = H - ((Math.max(lo, Math.min(hi, p.v)) - lo) / (hi - lo)) * H;
      c.beginPath();
      c.arc(px, py, 2.5 * dpr, 0, Math.PI * 2);
      c.fill();
    });
  });
  canvas.setAttribute('data-points', String(all.length));
}
