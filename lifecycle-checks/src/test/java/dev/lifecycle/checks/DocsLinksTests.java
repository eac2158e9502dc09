package dev.lifecycle.checks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link in the repository's Markdown reaches a file or directory of the
 * repository, and every {@code #anchor} a heading of its target page (GitHub's anchors:
 * lower case, punctuation dropped, spaces as hyphens, repeats numbered). Links out of the
 * repository are not followed.
 */
class DocsLinksTests {

	private static final Pattern FENCE = Pattern.compile("^(```|~~~).*?^\\1[^\\n]*$",
			Pattern.DOTALL | Pattern.MULTILINE);

	private static final Pattern CODE = Pattern.compile("`[^`\\n]*`");

	private static final Pattern LINK = Pattern.compile("\\]\\((<[^>]+>|[^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$", Pattern.MULTILINE);

	private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	@Test
	void everyRelativeLinkAndAnchorInTheDocsResolves() {
		List<String> dead = new ArrayList<>();
		int links = 0;
		for (Path file : MarkdownFiles.all()) {
			String text = prose(MarkdownFiles.read(file));
			Matcher link = LINK.matcher(text);
			while (link.find()) {
				String target = link.group(1).replaceAll("^<|>$", "");
				if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
					continue;
				}
				links++;
				String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
				String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
				Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
				String where = MarkdownFiles.name(file) + ": (" + target + ")";
				if (!resolved.startsWith(MarkdownFiles.ROOT)) {
					dead.add(where + " leaves the repository");
				}
				else if (!Files.exists(resolved)) {
					dead.add(where + " names no file");
				}
				else if (anchor != null && !anchor.isEmpty()) {
					if (!resolved.toString().endsWith(".md")) {
						if (!anchor.matches("L\\d+(-L\\d+)?")) {
							dead.add(where + " has an anchor into a file that is not Markdown");
						}
					}
					else if (!anchorsOf(resolved).contains(anchor)) {
						dead.add(where + " names no heading of " + MarkdownFiles.name(resolved));
					}
				}
			}
		}
		assertThat(links).as("relative links found in the docs").isPositive();
		assertThat(dead).isEmpty();
	}

	private Set<String> anchorsOf(Path file) {
		return this.anchors.computeIfAbsent(file, (page) -> {
			String raw = MarkdownFiles.read(page);
			String text = FENCE.matcher(raw).replaceAll("");
			Set<String> found = new HashSet<>();
			Map<String, Integer> seen = new HashMap<>();
			Matcher heading = HEADING.matcher(text);
			while (heading.find()) {
				String slug = slug(heading.group(1));
				int count = seen.merge(slug, 1, Integer::sum);
				found.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
			Matcher html = HTML_ANCHOR.matcher(raw);
			while (html.find()) {
				found.add(html.group(1));
			}
			return found;
		});
	}

	static String slug(String heading) {
		String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
		text = Normalizer.normalize(text, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
		StringBuilder slug = new StringBuilder();
		text.codePoints().forEach((c) -> {
			if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
				slug.appendCodePoint(c);
			}
			else if (c == ' ') {
				slug.append('-');
			}
		});
		return slug.toString();
	}

	private static String prose(String markdown) {
		String withoutFences = FENCE.matcher(markdown).replaceAll("");
		return CODE.matcher(withoutFences).replaceAll("");
	}

	@Test
	void anchorsAreGitHubs() {
		assertThat(slug("The `lifecycle` endpoint")).isEqualTo("the-lifecycle-endpoint");
		assertThat(slug("Why there is no preStop sleep")).isEqualTo("why-there-is-no-prestop-sleep");
		assertThat(slug("A finite (batch) job")).isEqualTo("a-finite-batch-job");
		assertThat(slug("Rolling restart, 3 rounds")).isEqualTo("rolling-restart-3-rounds");
	}

}
