/**
 * Logger-node planning after section 4.6 of "Addressing the last roadblock for message logging
 * in HPC": from a profile and a run length, choose a clustering, a memory quota for the log and
 * a number of dedicated logger nodes that hold what overflows the quota, keeping loggers under a
 * given share of the nodes. Depends on {@link io.rewind.tools.profile} and
 * {@link io.rewind.tools.cluster}.
 */
package io.rewind.tools.plan;
