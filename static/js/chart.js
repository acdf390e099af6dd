/* Bar charts drawn as inline SVG (no library): how many questions fall due on each of the
   coming days, and how many were answered (and how many of them right) on each of the past
   days. The drawing is hidden from assistive technology; its text alternative is the list of
   the same numbers beside it ([data-chart-text], visually hidden).

   Markup (templates/review.html): figure[data-chart] > figcaption, [data-chart-drawing]
   (its room kept by the stylesheet, so drawing moves nothing), ul[data-chart-text]. */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 120;

function shape(name, attributes, text = "") {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  element.textContent = text;
  return element;
}

/* bars: [{count, part?, label?, sentence, now?}] (part: how many of count are drawn as the
   bar's lower, stronger part; label: under the bar; now: the bar of today); number(n) for the
   count above each bar, or null for none. Today is on the side text starts. */
export function drawBars(figure, bars, number = null) {
  const slot = WIDTH / bars.length;
  const bar = slot * 0.6;
  const room = HEIGHT - 40;
  const most = Math.max(1, ...bars.map((b) => b.count));
  const svg = shape("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true", focusable: "false", class: "chart" });
  const rtl = getComputedStyle(figure).direction === "rtl";
  const high = (count) => (count ? Math.max(1, (room * count) / most) : 1);
  bars.forEach(({ count, part, label, sentence, now }, i) => {
    const x = (rtl ? bars.length - 1 - i : i) * slot + (slot - bar) / 2;
    const middle = x + bar / 2;
    const height = high(count);
    const drawn = shape("rect", { x, y: HEIGHT - 22 - height, width: bar, height, class: now ? "bar today" : "bar" });
    drawn.append(shape("title", {}, sentence)); // a pointer's tooltip
    svg.append(drawn);
    if (part) svg.append(shape("rect", { x, y: HEIGHT - 22 - high(part), width: bar, height: high(part), class: "bar part" }));
    if (number) svg.append(shape("text", { x: middle, y: HEIGHT - 26 - height, class: "count" }, number(count)));
    if (label) { // whole, even under the first or the last bar
      const half = label.length * 3.5;
      svg.append(shape("text", { x: Math.min(Math.max(middle, half), WIDTH - half), y: HEIGHT - 6, class: "day" }, label));
    }
  });
  figure.querySelector("[data-chart-drawing]").replaceChildren(svg);
  figure.querySelector("[data-chart-text]").replaceChildren(...bars.map(({ sentence }) => {
    const item = document.createElement("li");
    item.textContent = sentence;
    return item;
  }));
}

/* days: [{day (ms), count}]; words: {number(n), day(ms) -> short label, item({day, count}) -> sentence}. */
export function drawDueChart(figure, days, words) {
  drawBars(figure, days.map((entry, i) => ({ count: entry.count, label: words.day(entry.day), sentence: words.item(entry), now: i === 0 })), words.number);
}
