package io.rewind.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.Slice;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/architecture.md and each package-info's "depends on" / "must not depend on",
 * checked on the compiled classes of every module: calls go down, never up, and the runtime names
 * no concrete protocol. The protocols' packages are named by what they are not: every sub-package of
 * {@code io.rewind.ft} except the shared ones below is one protocol's own, so a protocol added
 * tomorrow is covered by these rules the day it appears.
 */
class LayeringTest {
    private static JavaClasses classes;

    /**
     * The sub-packages of {@code io.rewind.ft} that several protocols build on (the payload log, logger
     * nodes, sender-based logging, piggybacked determinants); with the root package they are the
     * fault-tolerance layer's shared part. Every other sub-package is one protocol's.
     */
    private static final Set<String> SHARED_FT = Set.of("log", "logger", "sender", "piggyback");

    /** The protocol whose package {@code pkg} is in, or null for a package that is no protocol's. */
    private static String protocolOf(String pkg) {
        String prefix = "io.rewind.ft.";
        if (!pkg.startsWith(prefix)) {
            return null;
        }
        String first = pkg.substring(prefix.length()).split("\\.")[0];
        return SHARED_FT.contains(first) ? null : first;
    }

    /** Classes of a protocol's own package. */
    private static final DescribedPredicate<JavaClass> A_PROTOCOLS_PACKAGE = DescribedPredicate.describe(
            "reside in a protocol's package (io.rewind.ft.X.. but not a shared one)",
            c -> protocolOf(c.getPackageName()) != null);

    /** What the layers above the protocols may use of the fault-tolerance layer: its shared part. */
    private static final DescribedPredicate<JavaClass> FT_BEYOND_ITS_SHARED_PART = resideInAPackage("io.rewind.ft..")
            .and(not(resideInAnyPackage("io.rewind.ft", "io.rewind.ft.log..", "io.rewind.ft.logger..")))
            .as("reside in io.rewind.ft.. beyond its root, ft.log and ft.logger");

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.rewind", "mpi");
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }

    @Test
    void everyModuleIsImported() {
        // The rules below would pass on nothing: make sure every layer is there.
        for (String c : new String[] {
            "io.rewind.engine.Mailbox",
            "io.rewind.ft.sender.SenderLoggingRank",
            "io.rewind.runtime.Job",
            "io.rewind.transport.local.InJvmTransport",
            "io.rewind.launch.ProcessJob",
            "io.rewind.transport.tcp.TcpTransport",
            "mpi.Comm",
            "io.rewind.tools.report.HtmlReport",
            "io.rewind.apps.random.RandomSpmd",
            "io.rewind.cli.RewindCommand"
        }) {
            assertTrue(classes.contain(c), c);
        }
        // And a rule does catch a dependency that exists.
        assertThrows(
                AssertionError.class,
                () -> check(noClasses()
                        .that()
                        .resideInAPackage("io.rewind.runtime..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage("io.rewind.engine..")));
        // The protocol packages are told from the shared ones, and their rules are not vacuous: the
        // registry names every protocol, and protocols build on the shared packages.
        assertTrue("mcml".equals(protocolOf("io.rewind.ft.mcml")) && protocolOf("io.rewind.ft.sender") == null);
        assertThrows(
                AssertionError.class,
                () -> check(noClasses()
                        .that()
                        .haveFullyQualifiedName("io.rewind.ft.ProtocolRegistry")
                        .should()
                        .dependOnClassesThat(A_PROTOCOLS_PACKAGE)));
        assertThrows(
                AssertionError.class,
                () -> check(slices().matching("io.rewind.ft.(*)..").should().notDependOnEachOther()));
    }

    @Test
    void theEngineDependsOnNothingAboveIt() {
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.engine..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.ft..",
                        "io.rewind.runtime..",
                        "io.rewind.transport..",
                        "io.rewind.checkpoint..",
                        "io.rewind.check..",
                        "io.rewind.api..",
                        "mpi..",
                        "io.rewind.cli..",
                        "io.rewind.tools..",
                        "io.rewind.apps.."));
    }

    @Test
    void thePayloadLogAndCheckpointStorageAreLeaves() {
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.ft.log..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.rewind.engine..", "io.rewind.runtime..", "io.rewind.transport.."));
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.ft.log..")
                .should()
                .dependOnClassesThat(
                        resideInAPackage("io.rewind.ft..").and(not(resideInAPackage("io.rewind.ft.log..")))));
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.checkpoint..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.engine..", "io.rewind.ft..", "io.rewind.runtime..", "io.rewind.transport.."));
    }

    @Test
    void protocolsNeverReachUpIntoTheRuntimeOrTheFacade() {
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.ft..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.runtime..",
                        "io.rewind.transport..",
                        "io.rewind.check..",
                        "mpi..",
                        "io.rewind.cli..",
                        "io.rewind.tools..",
                        "io.rewind.apps.."));
    }

    @Test
    void theLayersAboveTheProtocolsNameNone() {
        // The runtime, the launchers, the oracle and the command line's own classes reach a protocol
        // through the registry and its descriptor only (its bench and tool commands may name the
        // protocol they measure).
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "io.rewind.engine..",
                        "io.rewind.runtime..",
                        "io.rewind.launch..",
                        "io.rewind.transport..",
                        "io.rewind.check..",
                        "io.rewind.api..",
                        "mpi..",
                        "io.rewind.cli")
                .should()
                .dependOnClassesThat(FT_BEYOND_ITS_SHARED_PART));
    }

    @Test
    void noProtocolBuildsOnAnother() {
        // What two protocols share lives in io.rewind.ft or a shared sub-package, never in one of them.
        check(slices().matching("io.rewind.ft.(*)..")
                .that(DescribedPredicate.describe(
                        "are a protocol's package", (Slice slice) -> !SHARED_FT.contains(slice.getNamePart(1))))
                .should()
                .notDependOnEachOther());
    }

    @Test
    void theSharedPartOfTheFaultToleranceLayerNamesNoProtocol() {
        // Only the registry lists the protocols.
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.ft..")
                .and(not(A_PROTOCOLS_PACKAGE))
                .and()
                .doNotHaveFullyQualifiedName("io.rewind.ft.ProtocolRegistry")
                .should()
                .dependOnClassesThat(A_PROTOCOLS_PACKAGE));
    }

    @Test
    void theLauncherSitsAboveTheRuntimeAndNothingBelowUsesIt() {
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "io.rewind.engine..",
                        "io.rewind.ft..",
                        "io.rewind.runtime..",
                        "io.rewind.transport..",
                        "io.rewind.checkpoint..",
                        "mpi..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.rewind.launch.."));
    }

    @Test
    void transportsUseTheEngineSpiOnly() {
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.transport..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.rewind.ft..", "io.rewind.runtime..", "io.rewind.checkpoint..", "mpi.."));
    }

    @Test
    void theFacadeSitsOnTheEngineAndTheRuntimeOnly() {
        check(noClasses()
                .that()
                .resideInAPackage("mpi")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.ft..",
                        "io.rewind.transport..",
                        "io.rewind.checkpoint..",
                        "io.rewind.check..",
                        "io.rewind.cli..",
                        "io.rewind.tools..",
                        "io.rewind.apps.."));
    }

    @Test
    void nothingBelowTheCommandLineUsesItAndNothingInTheCoreUsesTheOracle() {
        check(noClasses()
                .that()
                .resideOutsideOfPackage("io.rewind.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.rewind.cli.."));
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "io.rewind.engine..",
                        "io.rewind.ft..",
                        "io.rewind.runtime..",
                        "io.rewind.transport..",
                        "io.rewind.checkpoint..",
                        "mpi..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.rewind.check.."));
    }

    @Test
    void theAnalysisToolsAreOfflineAndTheirCommandsDoNotRunJobs() {
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.tools..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.rewind.engine..", "io.rewind.ft..", "io.rewind.runtime..", "mpi.."));
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.cli.tools..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.rewind.runtime.."));
    }

    @Test
    void programsUseTheMpiApiAndRewindsOwnApiOnly() {
        // The sweep campaign is no program but a driver of jobs, as the oracle's tests are: it runs
        // programs through the runtime, the launcher and the oracle.
        check(noClasses()
                .that()
                .resideInAnyPackage("io.rewind.apps..")
                .and()
                .resideOutsideOfPackage("io.rewind.apps.sweep..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.engine..",
                        "io.rewind.ft..",
                        "io.rewind.runtime..",
                        "io.rewind.transport..",
                        "io.rewind.checkpoint..",
                        "io.rewind.check.."));
    }
}
