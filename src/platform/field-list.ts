/**
 * A list of every key of `T`, checked at compile time: a key of T the list leaves out is a type
 * error, so the list cannot fall behind the type it names. For importers that report the keys of
 * a record that no field reads.
 */
export function everyKeyOf<T>() {
  return <const L extends readonly (keyof T)[]>(keys: L & (Exclude<keyof T, L[number]> extends never ? unknown : never)): L => keys;
}
