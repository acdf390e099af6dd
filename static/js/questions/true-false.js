/* true-false: the choices True and False in the page's language, answered and judged as a
   single choice (questions/single.js): data-judge {"answers": [0]} for true, [1] for false.
   The result says which is right in words ("The answer is False"). */
export { judge, start } from "./single.js";
