// Small DOM helpers. Elements are built from text, never from markup strings: what the API answers (order text,
// reasons, players' names) is shown as text, so it can never become markup or script.

/** An element with attributes (`text` sets its text) and children (nodes or strings). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") node.textContent = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** The element with this id. */
export function byId(id) {
  return document.getElementById(id);
}

/** Say something to everyone, screen readers included, politely (after what they are reading). */
export function say(text) {
  const box = byId("messages");
  const line = el("p", {text});
  box.replaceChildren(line);
  // Gone after a while: it has been read out, and it covers the bottom of the screen.
  setTimeout(() => line.remove(), SAID_MS);
}

const SAID_MS = 8000;

/** Say that something went wrong, at once; `null` clears it. */
export function warn(text) {
  const box = byId("alerts");
  box.replaceChildren(...(text ? [el("p", {text})] : []));
}

/** Fill `fieldset` (after its legend) with a checkbox per power, those of `ticked` ticked. */
export function checkboxes(fieldset, prefix, powers, ticked = []) {
  const boxes = powers.map((power, i) => el("span", {class: "pick"},
    el("input", {type: "checkbox", id: `${prefix}-${i}`, value: power, checked: ticked.includes(power)}),
    el("label", {for: `${prefix}-${i}`, text: power})));
  fieldset.replaceChildren(fieldset.querySelector("legend"), ...boxes);
}

/** The powers ticked in `fieldset`. */
export function checked(fieldset) {
  return [...fieldset.querySelectorAll("input[type=checkbox]:checked")].map((box) => box.value);
}

/** Fill `select` with an option per power, keeping the one chosen when it is still there. */
export function options(select, powers) {
  const chosen = select.value;
  select.replaceChildren(...powers.map((power) => el("option", {value: power, text: power})));
  if (powers.includes(chosen)) select.value = chosen;
}
