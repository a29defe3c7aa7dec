package dev.workcell.gateway.openterminal.rest;

import static dev.workcell.gateway.openterminal.rest.TerminalApi.SESSION;
import static dev.workcell.gateway.openterminal.rest.TerminalApi.USER;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SearchHit;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Glob;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.GlobMatch;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Grep;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.GrepMatch;
import dev.workcell.gateway.openterminal.service.Fnmatch;
import dev.workcell.gateway.openterminal.service.HomePaths;
import dev.workcell.gateway.openterminal.service.SearchPaths;
import dev.workcell.gateway.openterminal.service.SessionCwds;
import dev.workcell.gateway.openterminal.service.TerminalCaller;
import dev.workcell.gateway.openterminal.service.TerminalSandbox;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** grep_search and glob_search of the Open Terminal API over sandbox-service's grep and glob. */
@Path(TerminalApi.BASE)
@Produces(MediaType.APPLICATION_JSON)
public class TerminalSearchResource {

  private static final int MAX_PATTERNS = 20;

  private final TerminalSandbox sandbox;
  private final SessionCwds cwds;

  public TerminalSearchResource(TerminalSandbox sandbox, SessionCwds cwds) {
    this.sandbox = sandbox;
    this.cwds = cwds;
  }

  @GET
  @Path("/files/grep")
  public Uni<Grep> grep(@QueryParam("query") String query, @QueryParam("path") String path, @QueryParam("regex") String regex,
      @QueryParam("case_insensitive") String caseInsensitive, @QueryParam("include") List<String> include,
      @QueryParam("match_per_line") String matchPerLine, @QueryParam("max_results") String maxResults,
      @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String text = QueryValues.required("query", query);
    String dir = HomePaths.resolve(QueryValues.text(path), cwds.get(caller));
    boolean useRegex = QueryValues.bool("regex", regex, true);
    boolean ignoreCase = QueryValues.bool("case_insensitive", caseInsensitive, false);
    boolean perLine = QueryValues.bool("match_per_line", matchPerLine, true);
    int max = QueryValues.integer("max_results", maxResults, 1, 500, 50);
    List<String> includes = patterns(include);
    // sandbox-service takes one include glob; several are one search each, merged in order ("" = none:
    // Mutiny streams carry no nulls).
    List<String> each = includes.isEmpty() ? List.of("") : includes;
    return Multi.createFrom().iterable(each)
        .onItem().transformToUniAndConcatenate(glob -> sandbox.ask(SandboxSubjects.FILES_GREP,
            new GrepFiles(caller.sandbox(), dir, text, useRegex, ignoreCase, glob.isEmpty() ? null : glob, perLine, max)))
        .collect().asList()
        .map(results -> {
          Set<GrepMatch> matches = new LinkedHashSet<>();
          boolean truncated = false;
          for (GrepResult result : results) {
            truncated |= result.truncated();
            for (SearchHit hit : result.matches() == null ? List.<SearchHit>of() : result.matches()) {
              String file = HomePaths.present(SearchPaths.homeRelative(dir, hit.path()));
              matches.add(perLine ? new GrepMatch(file, hit.line(), lineText(hit.text())) : new GrepMatch(file, null, null));
            }
          }
          List<GrepMatch> list = new ArrayList<>(matches);
          if (list.size() > max) {
            list = list.subList(0, max);
            truncated = true;
          }
          return new Grep(text, HomePaths.present(dir), list, truncated);
        });
  }

  @GET
  @Path("/files/glob")
  public Uni<Glob> glob(@QueryParam("pattern") String pattern, @QueryParam("path") String path,
      @QueryParam("exclude") List<String> exclude, @QueryParam("type") String type, @QueryParam("max_results") String maxResults,
      @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String glob = QueryValues.required("pattern", pattern);
    String dir = HomePaths.resolve(QueryValues.text(path), cwds.get(caller));
    String kind = QueryValues.absent(type) ? "any" : type;
    if (!kind.equals("any") && !kind.equals("file") && !kind.equals("directory")) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "type must be file, directory or any");
    }
    int max = QueryValues.integer("max_results", maxResults, 1, 500, 50);
    Fnmatch wanted = Fnmatch.compile(glob);
    List<Fnmatch> excludes = patterns(exclude).stream().map(Fnmatch::compile).toList();
    // A few more than asked, so the excludes (applied here, as upstream: name or path, no pruning) can still fill the page.
    int ask = excludes.isEmpty() ? max : Math.min(1000, max * 4);
    List<String> celldPatterns = Fnmatch.celldPatterns(glob);
    return Multi.createFrom().iterable(celldPatterns)
        .onItem().transformToUniAndConcatenate(each -> sandbox.ask(SandboxSubjects.FILES_GLOB,
            new GlobFiles(caller.sandbox(), dir, each, null, kind, ask)))
        .collect().asList()
        .map(results -> merged(results, dir, wanted, excludes, max, celldPatterns.size() > 1))
        .map(found -> new Glob(glob, HomePaths.present(dir), found.matches(), found.truncated()))
        .onFailure().transform(failure -> UpstreamStatus.directoryExpected(failure, "Search directory not found"));
  }

  private record Found(List<GlobMatch> matches, boolean truncated) {}

  /** The hits of every celld pattern that match the glob exactly and no exclude, once each, at most {@code max}. */
  private static Found merged(List<GlobResult> results, String dir, Fnmatch wanted, List<Fnmatch> excludes, int max,
      boolean sort) {
    Map<String, GlobMatch> found = new LinkedHashMap<>();
    boolean truncated = false;
    for (GlobResult result : results) {
      truncated |= result.truncated();
      for (GlobResult.GlobMatch match : result.matches() == null ? List.<GlobResult.GlobMatch>of() : result.matches()) {
        String relative = SearchPaths.belowSearched(dir, SearchPaths.homeRelative(dir, match.path()));
        if (!wanted.matches(relative) || excludes.stream().anyMatch(excluded -> excluded.matches(relative))) {
          continue;
        }
        String shownType = "dir".equals(match.type()) || "directory".equals(match.type()) ? "directory" : "file";
        found.putIfAbsent(relative, new GlobMatch(relative, shownType, match.size(), match.mtimeMs() / 1000.0));
      }
    }
    List<GlobMatch> matches = new ArrayList<>(found.values());
    if (sort) {
      matches.sort(Comparator.comparing(GlobMatch::path));
    }
    if (matches.size() > max) {
      matches = new ArrayList<>(matches.subList(0, max));
      truncated = true;
    }
    return new Found(matches, truncated);
  }

  /** As upstream's {@code line.rstrip("\n\r")}: a CRLF file's lines come without their {@code \r}. */
  private static String lineText(String text) {
    int end = text == null ? 0 : text.length();
    while (end > 0 && (text.charAt(end - 1) == '\r' || text.charAt(end - 1) == '\n')) {
      end--;
    }
    return text == null ? null : text.substring(0, end);
  }

  private static List<String> patterns(List<String> values) {
    List<String> patterns = values == null ? List.of()
        : values.stream().filter(value -> !QueryValues.absent(value)).distinct().toList();
    if (patterns.size() > MAX_PATTERNS) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "at most " + MAX_PATTERNS + " patterns");
    }
    return patterns;
  }
}
