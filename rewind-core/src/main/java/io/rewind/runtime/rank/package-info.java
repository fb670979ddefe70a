/**
 * The rank side of a job, whatever hosts the rank (a thread of the job's JVM, or a process of its
 * own): the events a rank's incarnation reports ({@link io.rewind.runtime.rank.RankEvent}) and the sink
 * they go to ({@link io.rewind.runtime.rank.RankEventSink}).
 */
package io.rewind.runtime.rank;
