"use client";

import type { ReactNode } from "react";
import { errorText, fieldId } from "./field-errors";

export interface ControlProps {
  id: string;
  name: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/**
 * A labelled field: label, one-line hint, the control, and its error right below it. The control
 * gets the ids it must reference, so the hint and the error are read with it.
 */
export function Field({
  field,
  label,
  hint,
  error,
  errorLabel,
  children,
  className = "",
}: {
  field: string;
  label: string;
  /** How the error names the field when the label reads badly in a sentence ("Repeat the password"). @default label */
  errorLabel?: string;
  hint?: ReactNode;
  error?: string;
  children: (control: ControlProps) => ReactNode;
  className?: string;
}) {
  const id = fieldId(field);
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={`field ${error ? "field-invalid" : ""} ${className}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {children({ id, name: field, "aria-describedby": describedBy || undefined, ...(error ? { "aria-invalid": true as const } : {}) })}
      <FieldError field={field} label={errorLabel ?? label} error={error} />
    </div>
  );
}

/** A field's error, led by the label the user sees (never the settings key). */
export function FieldError({ field, label, error }: { field: string; label?: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={`${fieldId(field)}-error`} className="field-error" data-testid={`error-${field}`}>
      <span aria-hidden="true">⚠ </span>
      {errorText(field, error, label)}
    </p>
  );
}

/** A checkbox with its label on the right and the hint below, as forms usually show them. */
export function CheckboxField({
  field,
  label,
  hint,
  checked,
  onChange,
  error,
}: {
  field: string;
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  const id = fieldId(field);
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={`field field-checkbox ${error ? "field-invalid" : ""}`}>
      <input
        type="checkbox"
        id={id}
        name={field}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={describedBy || undefined}
      />
      <div>
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="field-hint">
            {hint}
          </p>
        ) : null}
        <FieldError field={field} label={label} error={error} />
      </div>
    </div>
  );
}
