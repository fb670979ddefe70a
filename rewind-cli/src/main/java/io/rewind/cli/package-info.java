/**
 * The {@code rewind} command line: one picocli command per verb. Top of the layer stack: it may use
 * every module, nothing uses it.
 */
package io.rewind.cli;
