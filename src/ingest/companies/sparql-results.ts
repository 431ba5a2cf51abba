// The W3C "SPARQL 1.1 Query Results JSON Format" (what the Wikidata Query Service answers): read
// strictly, so that an error page, a truncated body or another shape fails instead of reading as
// "no results".

/** One RDF term of a solution. */
export interface SparqlTerm {
  type: 'uri' | 'literal' | 'bnode' | 'typed-literal' | 'triple';
  value: string;
  datatype?: string;
  lang?: string;
}

/** One solution: its bound variables (unbound ones are absent). */
export type SparqlRow = Record<string, SparqlTerm>;

export interface SparqlResults {
  vars: string[];
  rows: SparqlRow[];
}

const TERM_TYPES = new Set(['uri', 'literal', 'bnode', 'typed-literal', 'triple']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a SELECT answer; throws with the reason when the body is not one. */
export function readSparqlResults(body: string, where = 'answer'): SparqlResults {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    // WDQS sends a 200 and then, when a query runs out of time mid-answer, a stack trace: a cut body.
    const start = body.slice(0, 120).replace(/\s+/g, ' ');
    throw new Error(`${where}: not SPARQL JSON results (${(error as Error).message}; begins ${JSON.stringify(start)})`, { cause: error });
  }
  if (!isObject(parsed) || !isObject(parsed.head) || !Array.isArray(parsed.head.vars))
    throw new Error(`${where}: not SPARQL JSON results (no head.vars)`);
  if (!isObject(parsed.results) || !Array.isArray(parsed.results.bindings))
    throw new Error(`${where}: not SPARQL SELECT results (no results.bindings)`);
  const vars = parsed.head.vars.map((v, i) => {
    if (typeof v !== 'string') throw new Error(`${where}: head.vars[${i}] is not a name`);
    return v;
  });
  const rows = parsed.results.bindings.map((binding, i): SparqlRow => {
    if (!isObject(binding)) throw new Error(`${where}: results.bindings[${i}] is not an object`);
    const row: SparqlRow = {};
    for (const [name, term] of Object.entries(binding)) {
      if (!isObject(term) || typeof term.type !== 'string' || !TERM_TYPES.has(term.type))
        throw new Error(`${where}: results.bindings[${i}].${name} is not an RDF term`);
      // RDF-star triples carry an object as their value; nothing we read is one.
      if (term.type === 'triple') continue;
      if (typeof term.value !== 'string') throw new Error(`${where}: results.bindings[${i}].${name} has no text value`);
      const lang = term['xml:lang'];
      row[name] = {
        type: term.type as SparqlTerm['type'],
        value: term.value,
        ...(typeof term.datatype === 'string' ? { datatype: term.datatype } : {}),
        ...(typeof lang === 'string' ? { lang } : {}),
      };
    }
    return row;
  });
  return { vars, rows };
}
