/**
 * Clustering ranks for hierarchical message logging: messages inside a cluster are not logged,
 * messages between clusters are, and a failure restarts the failed rank's whole cluster.
 *
 * <p>{@link io.rewind.tools.cluster.Clusterer} partitions the symmetrised communication graph
 * into groups that minimise the inter-group (logged) volume with a multilevel partitioner
 * (heavy-edge matching, greedy graph growing, Fiduccia-Mattheyses refinement; recursive
 * bisection for k groups), can keep given groups of ranks together (the ranks of one node, as
 * the SPBC paper does), and has a balanced variant that then lowers the largest per-rank log.
 * {@link io.rewind.tools.cluster.ClusterFile} is the file the hierarchical protocol reads.
 * Depends only on {@link io.rewind.tools.profile}.
 */
package io.rewind.tools.cluster;
