package io.rewind.apps.sweep;

import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A randomized recovery campaign that keeps looking for as long as it is given: from one seed it draws
 * run after run ({@link RunDrawer}), runs them on several workers at once in this JVM (concurrency is
 * stress of its own), compares each bit for bit with its program's failure-free run ({@link Runner}),
 * and minimises every failure to a small reproduction ({@link Minimiser}). It prints a line of progress
 * every half minute and each failure as it is found, writes its report ({@link Report}) and exits 1 if
 * any run failed. {@code --help} lists the options; {@code scripts/sweep.sh} builds and runs it.
 */
public final class Campaign {
    /** How often a line of progress is printed (and the report written). */
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);

    /** After the last new run may start, how long minimising may still go on. */
    static final Duration MINIMISE_GRACE = Duration.ofMinutes(10);

    /** Reruns of a failing run to estimate how often it fails; the most tries of one smaller candidate. */
    static final int RERUNS = 10;

    static final int MAX_TRIES = 20;

    /** The most runs minimising one failure makes, its reruns included. */
    static final int MINIMISE_BUDGET = 80;

    private final CampaignOptions options;
    private final long seed;
    private final PrintStream out;
    private final RunDrawer drawer;
    private final Runner runner = new Runner(new References());
    private final Tally tally = new Tally();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger minimised = new AtomicInteger();
    private final AtomicInteger minimisingRuns = new AtomicInteger();
    private Instant started;
    private long deadline;

    Campaign(CampaignOptions options, PrintStream out) {
        this.options = options;
        this.seed = options.seed() != null ? options.seed() : System.nanoTime() ^ System.currentTimeMillis() << 20;
        this.out = out;
        List<String> protocols = new ArrayList<>();
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            protocols.add(p.name());
        }
        this.drawer =
                new RunDrawer(seed, protocols, options.processesEvery(), options.jitter(), options.jitterMicros());
    }

    public static void main(String[] args) {
        CampaignOptions options;
        try {
            options = CampaignOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("sweep: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.print(CampaignOptions.USAGE);
            return;
        }
        int status = new Campaign(options, System.out).run();
        // A run left behind hung is a daemon thread, but a job's own threads may not all be: end here.
        System.exit(status);
    }

    long seed() {
        return seed;
    }

    Tally tally() {
        return tally;
    }

    /** Runs the campaign to its end; 0 when every run matched, 1 otherwise. */
    int run() {
        started = Instant.now();
        deadline = System.nanoTime() + options.duration().toNanos();
        out.println("sweep: seed " + seed + ", " + options.workers() + " workers for "
                + options.duration().toMinutes()
                + " min " + options.duration().toSecondsPart() + " s, processes every " + options.processesEvery()
                + ", jitter " + options.jitter().name().toLowerCase() + " (" + options.jitterMicros() + " us)");
        out.println("sweep: again with: " + Report.command(header(false)));
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(
                r -> Thread.ofPlatform().name("sweep-progress").daemon(true).unstarted(r));
        progress.scheduleAtFixedRate(
                this::progress, PROGRESS_EVERY.toMillis(), PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < options.workers(); w++) {
            workers.add(Thread.ofPlatform().name("sweep-worker-" + w).start(this::work));
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        progress.shutdownNow();
        Report.Header h = header(true);
        Report.write(options.out(), h, tally, minimisingRuns.get());
        out.print(Report.text(h, tally, minimisingRuns.get()));
        out.println("sweep: report in " + options.out().resolve("sweep-" + Long.toUnsignedString(seed, 16) + ".txt")
                + " (and .json)");
        return tally.failureCount() == 0 ? 0 : 1;
    }

    private Report.Header header(boolean finished) {
        return new Report.Header(seed, options, started, Instant.now(), finished);
    }

    private boolean timeUp() {
        return System.nanoTime() - deadline >= 0;
    }

    /** A worker: draws the next run, runs it, counts it, and minimises it if it failed. */
    private void work() {
        while (!timeUp()) {
            int index = next.getAndIncrement();
            Program program = drawer.program(index);
            References.Reference ref = runner.references().of(program);
            RunSpec spec = ref.ok()
                    ? drawer.draw(index, ref.check().operations(), ref.millis())
                    : drawer.draw(index, new long[program.ranks()], 0);
            Runner.Outcome o = runner.run(spec);
            tally.add(o);
            if (!o.ok()) {
                failed(o);
            }
        }
    }

    private void failed(Runner.Outcome o) {
        int number = tally.failed(o);
        RunSpec s = o.spec();
        out.println("sweep: run " + s.index() + " FAILED: " + s.describe());
        out.println("sweep:   reproduce: " + s.commandLine());
        out.println("sweep:   " + firstLine(o.failure()));
        writeReport();
        if (minimised.getAndIncrement() >= options.minimise()) {
            return;
        }
        long stopAt = deadline + MINIMISE_GRACE.toNanos();
        Minimiser m = new Minimiser(
                spec -> {
                    minimisingRuns.incrementAndGet();
                    return !runner.run(spec).ok();
                },
                RERUNS,
                MAX_TRIES,
                MINIMISE_BUDGET,
                () -> System.nanoTime() - stopAt >= 0);
        Minimiser.Result r = m.minimise(s);
        tally.minimised(number, r);
        out.println("sweep: run " + s.index() + ": " + r.rate() + "; smallest: "
                + r.smallest().commandLine());
        writeReport();
    }

    private void progress() {
        long elapsedMillis = Duration.between(started, Instant.now()).toMillis();
        int runs = tally.runs();
        double perMinute = elapsedMillis > 0 ? runs * 60_000.0 / elapsedMillis : 0;
        long leftMillis = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
        out.printf(
                "sweep: %d min %02d s: %d runs, %d failed, %.1f runs/min, %d references, %s%n",
                elapsedMillis / 60_000,
                elapsedMillis / 1000 % 60,
                runs,
                tally.failureCount(),
                perMinute,
                runner.references().size(),
                leftMillis > 0
                        ? leftMillis / 60_000 + " min " + leftMillis / 1000 % 60 + " s left"
                        : "time is up, finishing the runs under way");
        writeReport();
    }

    private void writeReport() {
        try {
            Report.write(options.out(), header(false), tally, minimisingRuns.get());
        } catch (RuntimeException e) {
            out.println("sweep: " + e.getMessage());
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
