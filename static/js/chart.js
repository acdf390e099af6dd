/* A bar chart of how many questions fall due on each of the coming days, drawn as inline
   SVG (no library). The drawing is hidden from assistive technology; its text alternative
   is the list of the same numbers beside it ([data-chart-text], visually hidden).

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

/* days: [{day (ms), count}]; words: {number(n), day(ms) -> short label, item({day, count}) -> sentence}. */
export function drawDueChart(figure, days, words) {
  const slot = WIDTH / days.length;
  const bar = slot * 0.6;
  const room = HEIGHT - 40;
  const most = Math.max(1, ...days.map((d) => d.count));
  const svg = shape("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true", focusable: "false", class: "chart" });
  const rtl = getComputedStyle(figure).direction === "rtl"; // today on the side text starts
  days.forEach(({ day, count }, i) => {
    const height = Math.max(1, (room * count) / most);
    const x = (rtl ? days.length - 1 - i : i) * slot + (slot - bar) / 2;
    const middle = x + bar / 2;
    svg.append(
      shape("rect", { x, y: HEIGHT - 22 - height, width: bar, height, class: i === 0 ? "bar today" : "bar" }),
      shape("text", { x: middle, y: HEIGHT - 26 - height, class: "count" }, words.number(count)),
      shape("text", { x: middle, y: HEIGHT - 6, class: "day" }, words.day(day)),
    );
  });
  figure.querySelector("[data-chart-drawing]").replaceChildren(svg);
  figure.querySelector("[data-chart-text]").replaceChildren(...days.map((entry) => {
    const item = document.createElement("li");
    item.textContent = words.item(entry);
    return item;
  }));
}
