package dev.vigil.standalone.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium driven through Debian's chromedriver (packages {@code chromium} and {@code chromium-driver},
 * which {@code .ci/run} installs). Without them a test is skipped, except under CI ({@code CI} set), where a
 * missing browser fails the run instead of quietly skipping every browser test.
 */
final class HeadlessChromium {
    static final String CHROMIUM = System.getenv().getOrDefault("VIGIL_CHROMIUM", "/usr/bin/chromium");
    static final String CHROMEDRIVER = System.getenv().getOrDefault("VIGIL_CHROMEDRIVER", "/usr/bin/chromedriver");
    /** Where screenshots go, for a reviewer to look at. */
    static final Path SHOTS = Path.of("target", "console-screenshots");

    private HeadlessChromium() {}

    /** Skips (or, under CI, fails) when chromium or chromedriver is not installed. */
    static void assumeInstalled() {
        boolean present = new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
        String ci = System.getenv("CI");
        if (!present && ci != null && !ci.isBlank() && !ci.equals("false")) {
            throw new IllegalStateException("CI is set but " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing: .ci/run installs the chromium and chromium-driver packages");
        }
        Assumptions.assumeTrue(present, "headless chromium not installed (apt-get install chromium chromium-driver)");
    }

    /**
     * A new headless browser with its own empty profile. The flags keep Chromium from calling home, which this
     * machine's closed network refuses (and which a test has no business doing).
     */
    static ChromeDriver start(Path profile, int width, int height) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--disable-extensions",
                "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=" + width + "," + height);
        options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
        return driver;
    }

    /** Saves a PNG of the viewport as {@code target/console-screenshots/<name>.png}. */
    static Path screenshot(ChromeDriver driver, String name) {
        try {
            Files.createDirectories(SHOTS);
            Path file = SHOTS.resolve(name + ".png");
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
