package dev.vigil.streams.console;

/** Escaping for text placed in HTML or XML (element content and double-quoted attributes alike). */
public final class Html {
    private Html() {
    }

    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    // control characters have no business in a page or an SVG (and some are invalid XML)
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        out.append(' ');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
