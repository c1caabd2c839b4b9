/** One problem in an imported file, with where it is. */
export interface ImportProblem {
  /** 1-based line of the file (0 when the problem is about the whole file). */
  line: number;
  message: string;
}

/** An import refused: nothing was changed. The message lists every problem found, with line numbers. */
export class ImportError extends Error {
  readonly code: string = 'IMPORT_INVALID';
  constructor(
    readonly file: string,
    readonly problems: ImportProblem[],
  ) {
    const shown = problems
      .slice(0, 20)
      .map((problem) =>
        problem.line ? `  line ${problem.line}: ${problem.message}` : `  ${problem.message}`,
      );
    const more = problems.length > 20 ? [`  … and ${problems.length - 20} more`] : [];
    super(
      `Nothing was imported from ${file}; fix these and run the import again:\n${[...shown, ...more].join('\n')}`,
    );
  }
}

/** The most events of repeating series one import may create (issue 26): a file is counted before it is read in. */
export const IMPORT_OCCURRENCE_BUDGET = 50_000;

/**
 * An import refused for the events its repeating series would create, counted before any was made: nothing was
 * imported. Its one problem (line 0) is the sentence with both numbers.
 */
export class ImportTooLargeError extends ImportError {
  override readonly code = 'IMPORT_TOO_LARGE';
  constructor(
    file: string,
    /** How many events the file would create at most (counted from its rules, not made). */
    readonly occurrences: number,
    readonly budget: number = IMPORT_OCCURRENCE_BUDGET,
  ) {
    const count = (n: number) => n.toLocaleString('en-US');
    const sentence =
      `This file's repeating events would create up to ${count(occurrences)} events; an import may create at ` +
      `most ${count(budget)}. ` +
      'Split the file or shorten its repeats (a number of times or a last date), then import again.';
    super(file, [{ line: 0, message: sentence }]);
    this.message = `Nothing was imported from ${file}: ${sentence}`;
  }
}
