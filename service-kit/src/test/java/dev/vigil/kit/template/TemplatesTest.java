package dev.vigil.kit.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.samskivert.mustache.MustacheException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one template engine: HTML templates escape every value, text templates none, a missing name is an error. */
class TemplatesTest {
    record Model(String title, String body) {}

    @Test
    void anHtmlTemplateEscapesEveryValueInContentAndAttributes() {
        String html = Templates.html("templates/probe.html.mustache")
                .execute(new Model("\"><script>alert(1)</script>", "a & b <i>'x'</i> = `y`"));
        assertThat(html)
                .isEqualTo("<p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">"
                        + "a &amp; b &lt;i&gt;&#39;x&#39;&lt;/i&gt; = `y`</p>");
    }

    @Test
    void aTextTemplateLeavesValuesAsTheyAre() {
        assertThat(Templates.text("templates/probe.txt.mustache").execute(Map.of("title", "<b>", "body", "a & b")))
                .isEqualTo("<b>: a & b");
    }

    @Test
    void aNameTheModelDoesNotHaveIsAnErrorNotAnEmptyString() {
        assertThatThrownBy(() -> Templates.html("templates/probe.html.mustache").execute(Map.of("title", "t")))
                .isInstanceOf(MustacheException.class);
    }

    @Test
    void aMissingTemplateSaysWhichOne() {
        assertThatThrownBy(() -> Templates.html("templates/nowhere.mustache"))
                .hasMessageContaining("templates/nowhere.mustache");
    }
}
