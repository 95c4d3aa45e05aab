package dev.vigil.standalone.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The layout rules, checked on the compiled classes of every module (this module sees them all); each fails on any
 * violation, package cycles inside a module among them.
 */
class ArchitectureTest {
    /** The deployable services: none may reach into another. */
    private static final List<String> SERVICES =
            List.of("dev.vigil.ingest..", "dev.vigil.notifier..", "dev.vigil.probe..", "dev.vigil.streams..");
    /** What every service may use: the contracts, the service kit. */
    private static final List<String> SHARED = List.of("dev.vigil.schemas..", "dev.vigil.kit..");

    private static JavaClasses vigil;

    @BeforeAll
    static void importClasses() {
        vigil = new ClassFileImporter()
                // production classes only: ArchUnit's DO_NOT_INCLUDE_TESTS knows target/test-classes, not the
                // target-<name>/test-classes of a build run with -Dvigil.target
                .withImportOption(location -> !location.contains("/test-classes/"))
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.vigil");
    }

    static Stream<String> services() {
        return SERVICES.stream();
    }

    @ParameterizedTest
    @MethodSource("services")
    void aServiceDoesNotImportAnotherService(String service) {
        String[] others = SERVICES.stream().filter(s -> !s.equals(service)).toArray(String[]::new);
        noClasses()
                .that()
                .resideInAPackage(service)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(others)
                .because("each service is its own deployable; what they share lives in schemas or the service kit")
                .check(vigil);
    }

    @Test
    void productionServicesNeverRunTheEmbeddedBrokerOrDatabase() {
        noClasses()
                .that()
                .resideInAnyPackage(SERVICES.toArray(String[]::new))
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.vigil.embedded..")
                .because("only the standalone launcher and the tests run the in-process broker and PostgreSQL")
                .check(vigil);
    }

    @Test
    void theSharedModulesDependOnNoService() {
        String[] above = Stream.concat(SERVICES.stream(), Stream.of("dev.vigil.standalone..", "dev.vigil.embedded.."))
                .toArray(String[]::new);
        noClasses()
                .that()
                .resideInAnyPackage(SHARED.toArray(String[]::new))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(above)
                .check(vigil);
    }

    @Test
    void theNotifierCoreImportsNoAdapter() {
        noClasses()
                .that()
                .resideInAPackage("dev.vigil.notifier.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.vigil.notifier.channel..",
                        "dev.vigil.notifier.claim..",
                        "dev.vigil.notifier.consume..",
                        "dev.vigil.notifier.http..")
                .because("the core is the hexagon: vendors, PostgreSQL and Kafka sit behind its ports")
                .check(vigil);
    }

    @Test
    void noKafkaStreamsInternals() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage("dev.vigil..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka.streams..internals..")
                .because("Kafka Streams' internals change without notice between releases");
        rule.check(vigil);
    }

    static Stream<String> modules() {
        return Arrays.stream(
                new String[] {"ingest", "notifier", "probe", "streams", "schemas", "kit", "embedded", "standalone"});
    }

    @ParameterizedTest
    @MethodSource("modules")
    void noPackageCyclesInsideAModule(String module) {
        slices().matching("dev.vigil." + module + ".(*)..")
                .namingSlices("$1")
                .should()
                .beFreeOfCycles()
                .as("the packages of dev.vigil." + module + " are free of cycles")
                .check(vigil);
    }
}
