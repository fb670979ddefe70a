/**
 * JMH microbenchmarks of the payload log ({@code io.rewind.ft.log}): the cost of a logged send per
 * storage backend, copy method and message size, against the bare transfer. Results and the
 * commands that produced them are in docs/payload-log.md.
 */
package io.rewind.bench.log;
