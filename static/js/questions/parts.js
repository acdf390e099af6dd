/* What the types whose answer is composed share (multiple, order, match): words listed in
   the page language, a new element, the Check button their template part put in the page. */

/* Words in the page language's list: "A, B and C". */
export function listed(words) {
  return new Intl.ListFormat(document.documentElement.lang).format(words);
}

/* An element with its class and text. */
export function make(tag, className = "", text = "") {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
}

/* The Check button of a type whose answer is composed (templates/questions/_parts.html), shown. */
export function checkButton(root, check) {
  const line = root.querySelector("[data-check-line]");
  line.hidden = false;
  line.firstElementChild.addEventListener("click", check);
  return line.firstElementChild;
}
