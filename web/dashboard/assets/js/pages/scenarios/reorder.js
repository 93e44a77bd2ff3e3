// Moving an item of an ordered list one place up or down.

/** A copy of `items` with the item at `index` moved by `step` (-1 up, +1 down). */
export function moved(items, index, step) {
  const target = index + step;
  if (target < 0 || target >= items.length) return items;
  const copy = [...items];
  [copy[index], copy[target]] = [copy[target], copy[index]];
  return copy;
}
