/**
 * `rewind report`: one self-contained HTML page (inline SVG drawn here, a few lines of inline
 * script, no network fetch) with the communication heatmap, per-rank load and Gini gap, cluster
 * map, log growth per rank, recovery timeline, protocol comparison and the model's curves.
 * {@link io.rewind.tools.report.RunRecord} is the JSON run record schema the runtime writes
 * (documented in {@code docs/formats.md}). Depends on every other tools package.
 */
package io.rewind.tools.report;
