/**
 * What some formatters need beside the report, for every report kind: the lockfiles' text,
 * to point at the line of a change or finding (sarif, github), and the surfaces, to list
 * every item checked or linted (junit). Check and diff have two sides; lint has one, the
 * linted surface, which is its current side. Everything is optional: a formatter renders
 * what it can without it. Pure types.
 */
import type { Contract } from "../contract/model.ts";

/** The output formats of every report (check, diff and lint), as --format names them. */
export const FORMATS = ["text", "json", "sarif", "markdown", "junit", "github", "changelog"] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportFile {
  /** The path as given on the command line (relative to `cwd`, or absolute). */
  path: string;
  /** The file's text exactly as read. */
  text: string;
  /**
   * The text is the file at this git revision, not the file at `path` in the working tree
   * (`check --baseline-ref`): its lines are not the working tree's, so nothing is annotated on it.
   */
  revision?: string;
}

export interface ReportContext {
  /** The baseline lockfile (the committed file); lint has none. */
  baseline?: ReportFile;
  /**
   * The current side, when it is a lockfile (`diff`, `check --against`), or the linted
   * lockfile (`lint --from FILE`); absent for a live server.
   */
  current?: ReportFile;
  /** The baseline surface; parsed from `baseline.text` when absent. */
  baselineContract?: Contract;
  /** The current surface (the live capture, the second lockfile, the linted surface); parsed from `current.text` when absent. */
  currentContract?: Contract;
  /**
   * `check --baseline-ref` against a live server: the lockfile as it is in the working tree,
   * the file the pull request changes, where changes are annotated (the baseline's text is
   * the revision's).
   */
  worktree?: ReportFile;
  /** The directory relative paths are given from (default: the process's working directory). */
  cwd?: string;
  /**
   * The repository root (GITHUB_WORKSPACE, else git's top level): annotation paths and SARIF
   * URIs are relative to it (SARIF with the %SRCROOT% base), and a lockfile outside it is never
   * annotated. Absent: paths are relative to `cwd`.
   */
  root?: string;
  /**
   * The configured server this report is about (`check --all`): formats that interleave several
   * servers' lines (github) name it on each annotation and on the summary line.
   */
  server?: string;
}
