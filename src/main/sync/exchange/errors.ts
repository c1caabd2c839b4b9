/** One problem in an imported file, with where it is. */
export interface ImportProblem {
  /** 1-based line of the file (0 when the problem is about the whole file). */
  line: number;
  message: string;
}

/** An import refused: nothing was changed. The message lists every problem found, with line numbers. */
export class ImportError extends Error {
  readonly code = 'IMPORT_INVALID';
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
