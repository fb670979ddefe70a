/**
 * Watching a running job from outside: what the job's coordinator tells as it happens ({@link
 * io.rewind.runtime.watch.JobObserver}), the announcements of failures and recoveries on standard
 * error, the live status line of a terminal, Rewind's own JFR events and the job's MBeans. Fed by
 * both hosts (ranks as threads and ranks as processes) the same way; depends on the runtime's events
 * and report, nothing above them.
 */
package io.rewind.runtime.watch;
