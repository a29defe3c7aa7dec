package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.sandbox.runtime.SeccompProfile;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Kubernetes names and label values from the runtime's names. Docker names allow upper case, '_' and
 * more length than a DNS label; a name that is not already a DNS-1123 label of at most 63 characters
 * gets a lower-cased, shortened form plus a hash of the whole original, so two sandboxes never share one.
 */
final class ResourceNames {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final int MAX = 63;

  private ResourceNames() {}

  /** The Pod or PVC name of the runtime name {@code name}. */
  static String of(String name) {
    if (name.length() <= MAX && DNS_LABEL.matcher(name).matches()) {
      return name;
    }
    String hash = SeccompProfile.sha256(name).substring(0, 10);
    String base = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    base = base.substring(0, Math.min(base.length(), MAX - hash.length() - 1)).replaceAll("-+$", "");
    return base + "-" + hash;
  }

  /** Whether {@code value} may be a label value (at most 63 characters, alphanumeric at both ends). */
  static boolean labelValue(String value) {
    return value != null && value.length() <= MAX && LABEL_VALUE.matcher(value).matches();
  }
}
