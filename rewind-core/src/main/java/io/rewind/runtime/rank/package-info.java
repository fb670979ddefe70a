/**
 * The rank runtime: what runs a rank's incarnations whatever hosts them (a thread of the job's JVM,
 * or a process of its own), {@link io.rewind.runtime.rank.RankRuntime}. It builds, runs, strikes and
 * catches up incarnations, reports what happens as {@link io.rewind.runtime.rank.RankEvent}s into one
 * {@link io.rewind.runtime.rank.RankEventSink}, and asks what differs between hosts of a {@link
 * io.rewind.runtime.rank.RankHost}. The class loader, context, checkpoint agent and image format of a
 * rank live here too.
 */
package io.rewind.runtime.rank;
