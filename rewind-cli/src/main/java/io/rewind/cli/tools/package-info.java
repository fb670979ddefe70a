/**
 * Command-line front ends of the analysis and planning tools: {@code rewind analyze} (load,
 * cluster, mcml, generate), {@code rewind model}, {@code rewind plan} and {@code rewind report}.
 * Each command parses options, calls {@code io.rewind.tools}, and prints text or JSON; no
 * analysis logic lives here. Must not depend on the runtime packages.
 */
package io.rewind.cli.tools;
