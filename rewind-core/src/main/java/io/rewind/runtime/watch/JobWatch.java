package io.rewind.runtime.watch;

import io.rewind.ft.FlightRecording;
import io.rewind.runtime.RunReport;
import io.rewind.runtime.rank.RankEvent;
import java.nio.file.Path;

/**
 * Everything that watches one job from its launcher, fed as a {@link JobObserver}: the live figures
 * ({@link JobFigures}), the job's MBeans, an optional status line and an optional JFR recording, with
 * Rewind's own failure and recovery events. Started with the job ({@link #started}), closed at its
 * end ({@link #ended}): the status line cleared, the MBeans unregistered, the recording written.
 */
public final class JobWatch implements JobObserver {
    private final JobFigures figures;
    private final StatusLine status;
    private final JobMBeans mbeans = new JobMBeans();
    private JobRecording recording;
    private String registeredAs;

    /**
     * @param name    the job's name in its MBeans (the program's class, say)
     * @param ranks   the job's ranks
     * @param status  the status line to keep up to date (null: none)
     * @param jfrFile where the job's JFR recording goes (null: none)
     */
    public JobWatch(String name, int ranks, StatusLine status, Path jfrFile) {
        this.figures = new JobFigures(name, ranks);
        this.status = status;
        if (jfrFile != null) {
            // From now on, so that the rank processes know where to write theirs before they start.
            recording = JobRecording.start(jfrFile);
        }
    }

    public JobFigures figures() {
        return figures;
    }

    /** The name the job's MBeans were registered under (null before the job started). */
    public String registeredAs() {
        return registeredAs;
    }

    @Override
    public Path rankRecordings() {
        return recording == null ? null : recording.rankFolder();
    }

    @Override
    public void started(int ranks, long startNanos) {
        figures.started(startNanos);
        registeredAs = mbeans.register(figures);
        if (status != null) {
            status.start();
        }
    }

    @Override
    public void emit(RankEvent event) {
        figures.take(event);
    }

    @Override
    public void failed(RunReport.FailureRecord f, String cause) {
        figures.failed(f);
        if (FlightRecording.started()) { // asked here: loading an event class would start JFR
            FailureEvent.emit(f, cause);
        }
    }

    @Override
    public void recovered(RunReport.FailureRecord f) {
        figures.recovered(f);
        if (FlightRecording.started()) { // asked here: loading an event class would start JFR
            RecoveryEvent.emit(f);
            RecoveryPhaseEvent.emitEach(f);
        }
    }

    /** The name of the span that ends when {@code p} is entered: detect, respawn, restore, replay. */
    @Override
    public void ended(boolean ok) {
        figures.ended(ok);
        if (status != null) {
            status.stop();
        }
        mbeans.unregister();
        if (recording != null) {
            recording.finish();
            recording = null;
        }
    }
}
