/**
 * {@code rewind bench}: the measurement harness. Each subcommand runs real jobs, interleaves the
 * variants it compares, and writes CSV and Markdown beside a short summary on the terminal.
 */
package io.rewind.cli.bench;
