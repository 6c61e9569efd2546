import { QueryTimedOutError } from '../errors';

/**
 * How much one query may examine before it answers 400 `QueryTimedOut` instead of running into
 * the function's timeout: a number of resources read and a time. Queries an index answers stay
 * far below both; the rest (predicates on `objectTypeProperty`, other sorts, filtered totals)
 * read the project's resources and stop here. Defaults and their measurements: docs/design.md, "Query budget".
 */
export class QueryBudget {
  static readonly DEFAULT_ITEMS = 20_000;
  static readonly DEFAULT_MILLISECONDS = 5_000;

  /** What a query (GET and HEAD `/{projectKey}/resource`, GET `…/sorted-query-parameters`) can do about it. */
  static readonly QUERY_ADVICE =
    'Narrow it with a top-level condition on an indexed field (id, key, a createdAt range, or a lastModifiedAt range where the ' +
    'deployment indexes lastModifiedAt), ask withTotal=false, or page by id (sort=id asc with where id > "<last id>").';

  constructor(
    readonly maxItems = QueryBudget.DEFAULT_ITEMS,
    readonly maxMilliseconds = QueryBudget.DEFAULT_MILLISECONDS,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** From `QUERY_BUDGET_ITEMS` and `QUERY_BUDGET_MS` when set (positive integers), else the defaults. */
  static fromEnvironment(environment: Record<string, string | undefined> = process.env): QueryBudget {
    const read = (name: string, fallback: number) => {
      const value = Number(environment[name]);
      return Number.isInteger(value) && value > 0 ? value : fallback;
    };
    return new QueryBudget(read('QUERY_BUDGET_ITEMS', QueryBudget.DEFAULT_ITEMS), read('QUERY_BUDGET_MS', QueryBudget.DEFAULT_MILLISECONDS));
  }

  /** Starts spending for one query: call the result for every resource examined. */
  start(): () => void {
    const deadline = this.clock() + this.maxMilliseconds;
    let examined = 0;
    return () => {
      examined++;
      if (examined > this.maxItems) throw new QueryTimedOutError(`more than ${this.maxItems} resources`, QueryBudget.QUERY_ADVICE);
      // The clock is read every 64 resources: cheap, and a page of reads takes longer than that.
      if ((examined & 63) === 0 && this.clock() > deadline) throw new QueryTimedOutError(`more than ${this.maxMilliseconds} ms`, QueryBudget.QUERY_ADVICE);
    };
  }
}
