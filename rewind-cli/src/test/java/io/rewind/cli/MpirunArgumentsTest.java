package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.launch.Launch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Open MPI's mpirun command line, each form, and how it maps onto rewind run. */
class MpirunArgumentsTest {
    /** Some of rewind run's options: whether each takes a value. */
    private static final Map<String, Boolean> RUN = Map.of(
            "--protocol",
            true,
            "--checkpoint-every",
            true,
            "--kill",
            true,
            "--launch",
            true,
            "--rsh",
            true,
            "--no-record",
            false,
            "--shm",
            false,
            "--no-shm",
            false);

    private static final List<String> PROGRAM = List.of("java", "-Xmx1g", "-cp", "app.jar", "Main", "a");

    @TempDir
    Path dir;

    private static MpirunArguments.Parsed parse(String... words) {
        return MpirunArguments.parse(List.of(words), RUN);
    }

    private static MpirunArguments.Parsed withProgram(String... options) {
        List<String> words = new ArrayList<>(List.of(options));
        words.addAll(PROGRAM);
        return MpirunArguments.parse(words, RUN);
    }

    /** This machine of 4 processors, outside Slurm unless {@code env} says otherwise. */
    private MpirunArguments.Surroundings here(Map<String, String> env) {
        return new MpirunArguments.Surroundings(env, 4, dir);
    }

    private List<String> run(Map<String, String> env, String... options) {
        return MpirunArguments.toRun(withProgram(options), here(env));
    }

    @Test
    void everySpellingOfTheNumberOfRanks() {
        for (String np : List.of("-np", "-n", "--np", "--n")) {
            assertEquals(3, withProgram(np, "3").np(), np);
        }
        assertThrows(IllegalArgumentException.class, () -> withProgram("-np", "four"));
        assertThrows(IllegalArgumentException.class, () -> withProgram("-np", "0"));
        assertThrows(IllegalArgumentException.class, () -> parse("-np"));
    }

    @Test
    void everySpellingOfTheHostfileAndTheHostList() {
        for (String h : List.of("--hostfile", "-hostfile", "--machinefile", "-machinefile")) {
            assertEquals(Path.of("hosts"), withProgram(h, "hosts").hostfile(), h);
        }
        for (String h : List.of("-H", "--host", "-host")) {
            assertEquals(List.of("a,b:2"), withProgram(h, "a,b:2").hosts(), h);
        }
        assertEquals(
                List.of(new Launch.Node("a", 1), new Launch.Node("b", 3)),
                MpirunArguments.hostList(List.of("a,b:2", "b")));
        assertThrows(IllegalArgumentException.class, () -> MpirunArguments.hostList(List.of("a:x")));
        assertThrows(IllegalArgumentException.class, () -> MpirunArguments.hostList(List.of("a:0")));
        assertThrows(IllegalArgumentException.class, () -> MpirunArguments.hostList(List.of(",a")));
    }

    @Test
    void environmentOversubscribeBindingMappingAndMca() {
        MpirunArguments.Parsed p = withProgram(
                "-x",
                "A=1",
                "-x",
                "HOME",
                "--oversubscribe",
                "--bind-to",
                "none",
                "-map-by",
                "slot",
                "--mca",
                "btl",
                "tcp,self",
                "-mca",
                "pml",
                "ob1",
                "--allow-run-as-root",
                "--tag-output");
        assertEquals(List.of("A=1", "HOME"), p.environment());
        assertTrue(p.oversubscribe());
        assertEquals("slot", p.mapBy());
        assertEquals(2, p.notes().size(), "one note per --mca");
        assertTrue(
                p.notes().getFirst().contains("--mca btl tcp,self ignored"),
                p.notes().toString());
        assertTrue(parse("-oversubscribe", "java", "M").oversubscribe());
        assertThrows(IllegalArgumentException.class, () -> parse("--mca", "btl"), "a key without a value");
    }

    @Test
    void bindingsAndMappingsThatCannotBeHonouredAreRefusedNamingThem() {
        IllegalArgumentException bind =
                assertThrows(IllegalArgumentException.class, () -> withProgram("--bind-to", "core"));
        assertTrue(bind.getMessage().startsWith("--bind-to core cannot be honoured"), bind.getMessage());
        IllegalArgumentException map =
                assertThrows(IllegalArgumentException.class, () -> withProgram("--map-by", "ppr:2:socket"));
        assertTrue(map.getMessage().startsWith("--map-by ppr:2:socket cannot be honoured"), map.getMessage());
    }

    @Test
    void rewindRunOptionsPassThroughWithTheirValues() {
        MpirunArguments.Parsed p = withProgram(
                "-np",
                "2",
                "--protocol",
                "pessimistic",
                "--checkpoint-every=5",
                "--kill",
                "1@30",
                "--no-record",
                "--no-shm",
                "--launch",
                "threads");
        assertEquals(
                List.of(
                        "--protocol",
                        "pessimistic",
                        "--checkpoint-every=5",
                        "--kill",
                        "1@30",
                        "--no-record",
                        "--no-shm",
                        "--launch",
                        "threads"),
                p.rewindOptions());
        assertEquals("threads", p.launch());
        assertEquals(PROGRAM, p.program(), "the program is everything from its first word on");
    }

    @Test
    void anUnknownOptionIsOneLineNamingIt() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> withProgram("-np", "2", "--report-bindings"));
        assertTrue(e.getMessage().startsWith("unknown option --report-bindings:"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> parse("-np", "2"));
        assertTrue(none.getMessage().startsWith("no program"), none.getMessage());
    }

    @Test
    void helpAndVersion() {
        assertTrue(parse("--help").help());
        assertTrue(parse("-h").help());
        assertTrue(parse("--version").version());
    }

    @Test
    void withoutHostsOrSlurmRanksAreProcessesOfThisMachine() {
        assertEquals(
                List.of("--launch=local", "--np=2", "--env=A=1", "java", "-Xmx1g", "-cp", "app.jar", "Main", "a"),
                run(Map.of(), "-np", "2", "-x", "A=1"));
        assertEquals(List.of("--launch=local", "--np=4"), run(Map.of()).subList(0, 2), "-np: the processors");
    }

    @Test
    void moreRanksThanSlotsNeedOversubscribe() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(Map.of(), "-np", "5"));
        assertEquals(
                "5 ranks (-np 5) but 4 slots in this machine (its processors): give fewer ranks, more slots, or "
                        + "--oversubscribe",
                e.getMessage());
        assertTrue(run(Map.of(), "-np", "5", "--oversubscribe").contains("--np=5"));
        // As threads, ranks take no slots.
        assertTrue(run(Map.of(), "-np", "9", "--launch", "threads").contains("--np=9"));
    }

    @Test
    void aHostfileMeansSshAndItsSlotsCount() throws IOException {
        Path hosts = Files.writeString(dir.resolve("hosts"), "a slots=2\nb slots=2\n");
        List<String> run = run(Map.of("SLURM_JOB_ID", "7"), "--hostfile", hosts.toString(), "--rsh", "ssh -F c");
        assertEquals(List.of("--rsh", "ssh -F c", "--launch=ssh", "--hostfile=" + hosts, "--np=4"), run.subList(0, 5));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> run(Map.of(), "-np", "6", "--hostfile", hosts.toString()));
        assertTrue(e.getMessage().contains("but 4 slots in the hosts"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> run(Map.of(), "--hostfile", hosts.toString(), "--launch", "local"),
                "a hostfile with another mode");
        assertThrows(
                IllegalArgumentException.class,
                () -> run(Map.of(), "--hostfile", hosts.toString(), "-H", "a"),
                "hosts given twice");
    }

    @Test
    void oversubscribedHostsGetSlotsRoundThem() throws IOException {
        Path hosts = Files.writeString(dir.resolve("hosts"), "a slots=2\nb\n");
        List<String> run = run(Map.of(), "-np", "6", "--oversubscribe", "--hostfile", hosts.toString());
        Path written = Path.of(run.get(1).substring("--hostfile=".length()));
        assertEquals(List.of("a slots=4", "b slots=2"), Files.readAllLines(written));
        assertEquals(
                List.of(new Launch.Node("a", 3), new Launch.Node("b", 2)),
                MpirunArguments.oversubscribed(List.of(new Launch.Node("a", 2), new Launch.Node("b", 1)), 5));
    }

    @Test
    void aHostListBecomesAHostfile() throws IOException {
        List<String> run = run(Map.of(), "-H", "a,b:2");
        assertEquals("--launch=ssh", run.get(0));
        assertEquals("--np=3", run.get(2));
        Path written = Path.of(run.get(1).substring("--hostfile=".length()));
        assertEquals(List.of("a slots=1", "b slots=2"), Files.readAllLines(written));
    }

    @Test
    void insideASlurmAllocationRanksGoToItsNodes() {
        Map<String, String> slurm = Map.of("SLURM_JOB_ID", "7", "SLURM_NTASKS", "4", "SLURM_JOB_NUM_NODES", "1");
        assertEquals(List.of("--launch=slurm", "--np=4"), run(slurm).subList(0, 2), "-np: SLURM_NTASKS");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(slurm, "-np", "8"));
        assertTrue(e.getMessage().contains("but 4 slots in the Slurm allocation"), e.getMessage());
        assertTrue(run(slurm, "--map-by", "node").contains("--launch=slurm"), "one node: as slot");
        Map<String, String> two = Map.of("SLURM_JOB_ID", "7", "SLURM_NTASKS", "4", "SLURM_JOB_NUM_NODES", "2");
        assertThrows(IllegalArgumentException.class, () -> run(two, "--map-by", "node"));
        assertFalse(run(slurm, "--launch", "local", "-np", "2").contains("--launch=slurm"), "--launch wins");
    }
}
