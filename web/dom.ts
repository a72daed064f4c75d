// Small DOM helpers the page's modules share.

/** An element of the page's shell by id (web/index.html has them all). */
export const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** An element with properties and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]>, ...children: Array<string | Node>): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}
