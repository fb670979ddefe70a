/**
 * Self-checking workloads that checkpoint through {@link io.rewind.api.Checkpointer}: each prints a
 * deterministic checksum, so a run with failures can be compared bit for bit with one without, and
 * a run at any rank count with a sequential computation.
 *
 * <p>Shaped like the applications of the papers' evaluations (each class documents its
 * communication pattern and parameters):
 * <ul>
 *   <li>{@link io.rewind.apps.workloads.Stencil3D}: Himeno-like 3-D Jacobi, halo planes and an allReduce;</li>
 *   <li>{@link io.rewind.apps.workloads.ConjugateGradient}: NPB-CG-like, sparse CG on a 2-D process grid;</li>
 *   <li>{@link io.rewind.apps.workloads.HeatCG}: TeaLeaf-like implicit heat conduction, CG per step;</li>
 *   <li>{@link io.rewind.apps.workloads.AmrHalo}: MiniAMR-like halo exchange with refinement (uneven volume);</li>
 *   <li>{@link io.rewind.apps.workloads.GraphBfs}: Graph500-like BFS, data-dependent destinations;</li>
 *   <li>{@link io.rewind.apps.workloads.Discovery}: the SPBC paper's iProbe(ANY_SOURCE) discovery pattern;</li>
 *   <li>{@link io.rewind.apps.workloads.MonteCarlo}: SPhot-like, tallies to the root and barriers;</li>
 *   <li>{@link io.rewind.apps.workloads.MasterWorker}: ANY_SOURCE schedule, not channel-deterministic;</li>
 *   <li>{@link io.rewind.apps.workloads.Stencil2D}, {@link io.rewind.apps.workloads.PollingExchange},
 *       {@link io.rewind.apps.workloads.CollectiveMix}: smaller recovery-test workloads.</li>
 * </ul>
 */
package io.rewind.apps.workloads;
