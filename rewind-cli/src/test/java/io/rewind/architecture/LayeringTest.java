package io.rewind.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/architecture.md and each package-info's "depends on" / "must not depend on",
 * checked on the compiled classes of every module: calls go down, never up, and the runtime names
 * no concrete protocol.
 */
class LayeringTest {
    private static JavaClasses classes;

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
                .resideInAnyPackage(
                        "io.rewind.engine..",
                        "io.rewind.runtime..",
                        "io.rewind.transport..",
                        "io.rewind.ft",
                        "io.rewind.ft.none..",
                        "io.rewind.ft.global..",
                        "io.rewind.ft.pessimistic..",
                        "io.rewind.ft.sender..",
                        "io.rewind.ft.spbc..",
                        "io.rewind.ft.template.."));
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
    void theRuntimeNamesNoConcreteProtocol() {
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.runtime..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.ft.none..",
                        "io.rewind.ft.global..",
                        "io.rewind.ft.pessimistic..",
                        "io.rewind.ft.sender..",
                        "io.rewind.ft.spbc..",
                        "io.rewind.ft.template.."));
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
        check(noClasses()
                .that()
                .resideInAPackage("io.rewind.launch..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.rewind.ft.none..",
                        "io.rewind.ft.global..",
                        "io.rewind.ft.pessimistic..",
                        "io.rewind.ft.sender..",
                        "io.rewind.ft.spbc..",
                        "io.rewind.ft.template.."));
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
        check(noClasses()
                .that()
                .resideInAnyPackage("io.rewind.apps..")
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
