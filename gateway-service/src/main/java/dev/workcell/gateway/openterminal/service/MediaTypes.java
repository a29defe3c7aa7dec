package dev.workcell.gateway.openterminal.service;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Content types by file name, as Python's {@code mimetypes.guess_type} gives them for common files. */
public final class MediaTypes {

  public static final String OCTET_STREAM = "application/octet-stream";

  private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
      Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
      Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("bmp", "image/bmp"),
      Map.entry("ico", "image/vnd.microsoft.icon"), Map.entry("tif", "image/tiff"), Map.entry("tiff", "image/tiff"),
      Map.entry("svg", "image/svg+xml"), Map.entry("avif", "image/avif"),
      Map.entry("pdf", "application/pdf"), Map.entry("zip", "application/zip"), Map.entry("gz", "application/gzip"),
      Map.entry("tar", "application/x-tar"), Map.entry("json", "application/json"), Map.entry("xml", "application/xml"),
      Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
      Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
      Map.entry("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
      Map.entry("odt", "application/vnd.oasis.opendocument.text"), Map.entry("ods", "application/vnd.oasis.opendocument.spreadsheet"),
      Map.entry("odp", "application/vnd.oasis.opendocument.presentation"), Map.entry("epub", "application/epub+zip"),
      Map.entry("txt", "text/plain"), Map.entry("log", "text/plain"), Map.entry("md", "text/markdown"),
      Map.entry("csv", "text/csv"), Map.entry("html", "text/html"), Map.entry("htm", "text/html"),
      Map.entry("css", "text/css"), Map.entry("js", "text/javascript"), Map.entry("mjs", "text/javascript"),
      Map.entry("py", "text/x-python"), Map.entry("sh", "application/x-sh"), Map.entry("yaml", "application/yaml"),
      Map.entry("yml", "application/yaml"), Map.entry("mp3", "audio/mpeg"), Map.entry("wav", "audio/wav"),
      Map.entry("ogg", "audio/ogg"), Map.entry("mp4", "video/mp4"), Map.entry("webm", "video/webm"),
      Map.entry("woff", "font/woff"), Map.entry("woff2", "font/woff2"), Map.entry("ttf", "font/ttf"));

  /** Images read_file returns as raw bytes (SVG is text and read as such). */
  private static final Set<String> RAW_IMAGES = Set.of("png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "tif", "tiff", "avif");

  /** Documents read_file converts to text inside the sandbox. */
  private static final Set<String> DOCUMENTS = Set.of("pdf", "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub");

  private MediaTypes() {}

  public static String of(String path) {
    return BY_EXTENSION.getOrDefault(extension(path), OCTET_STREAM);
  }

  public static boolean rawImage(String path) {
    return RAW_IMAGES.contains(extension(path));
  }

  /** The document kind ({@code pdf}, {@code docx}, ...) or null. */
  public static String document(String path) {
    String extension = extension(path);
    return DOCUMENTS.contains(extension) ? extension : null;
  }

  private static String extension(String path) {
    int slash = path.lastIndexOf('/');
    int dot = path.lastIndexOf('.');
    return dot > slash && dot < path.length() - 1 ? path.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
  }
}
