/** Loading and error placeholders shared by the cockpit's panels. */
export function PanelLoading({ label }: { label: string }) {
  return (
    <p className="panel-loading" role="status">
      Loading {label}…
    </p>
  );
}

export function PanelError({ label, error }: { label: string; error: Error }) {
  return (
    <p className="error-box error-small" role="alert">
      Could not load {label}: {error.message}
    </p>
  );
}
