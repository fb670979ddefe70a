/**
 * Benchmarks of the payload log ({@code io.rewind.ft.log}): JMH microbenchmarks of a logged send per
 * storage backend, copy method and message size, against the bare transfer (results in
 * docs/payload-log.md), and plain programs that measure what bounds logging on a given machine:
 * {@code CrossCoreCopy} (a copy by the core that wrote the source or by another), {@code
 * LogMemoryCopy} (a copy into log memory by footprint) and {@code EnginePingPong} (the logged send
 * path on the engine alone). Their figures and commands are in docs/benchmarks.md.
 */
package io.rewind.bench.log;
