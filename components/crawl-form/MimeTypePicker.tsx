"use client";

import { useState } from "react";
import { DATA_FILES_MIME_TYPES, DOCUMENT_MIME_TYPES, PAPER_TARGET_MIME_TYPES } from "@/lib/crawler/defaults";
import { FieldError } from "./fields";
import { fieldId } from "./field-errors";

export const MIME_PRESETS = [
  { name: "Data files", types: DATA_FILES_MIME_TYPES, hint: "CSV, spreadsheets, JSON, XML, archives" },
  { name: "Documents", types: DOCUMENT_MIME_TYPES, hint: "PDF, Word, OpenDocument, PowerPoint" },
  { name: "Paper's full list", types: PAPER_TARGET_MIME_TYPES, hint: "the 38 types of the SB-CLASSIFIER paper, broad" },
] as const;

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/**
 * Target MIME types as removable chips. A preset button adds its types (or removes them when all
 * are already there: the button is pressed); single types are typed in and added with Enter.
 */
export function MimeTypePicker({ value, onChange, error }: { value: string[]; onChange: (next: string[]) => void; error?: string }) {
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string | null>(null);
  const field = "targetMimeTypes";
  const id = fieldId(field);
  const selected = new Set(value);

  const togglePreset = (types: readonly string[]) => {
    const all = types.every((type) => selected.has(type));
    onChange(all ? value.filter((type) => !types.includes(type)) : [...value, ...types.filter((type) => !selected.has(type))]);
  };
  const addDraft = () => {
    const types = draft.split(/[\s,]+/).map((type) => type.trim().toLowerCase()).filter(Boolean);
    if (types.length === 0) return;
    const bad = types.find((type) => !MIME_PATTERN.test(type));
    if (bad) {
      setDraftError(`“${bad}” must look like type/subtype, e.g. text/csv`);
      return;
    }
    onChange([...value, ...types.filter((type) => !selected.has(type))]);
    setDraft("");
    setDraftError(null);
  };

  return (
    <fieldset className={`field mime-picker ${error ? "field-invalid" : ""}`} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}>
      <legend className="field-label">Target MIME types</legend>
      <p id={`${id}-hint`} className="field-hint">
        A response whose Content-Type is in this list is a target: its file is stored. Start from a preset, then add
        or remove single types.
      </p>
      <div className="preset-row" role="group" aria-label="Presets">
        {MIME_PRESETS.map((preset) => {
          const pressed = preset.types.every((type) => selected.has(type));
          return (
            <button
              key={preset.name}
              type="button"
              className="button preset-button"
              aria-pressed={pressed}
              onClick={() => togglePreset(preset.types)}
              title={preset.hint}
            >
              <span className="preset-check" aria-hidden="true">{pressed ? "✓" : "+"}</span> {preset.name}
              <span className="preset-count" aria-hidden="true">{preset.types.length}</span>
            </button>
          );
        })}
      </div>
      {value.length > 0 ? (
        <ul className="chips" aria-label="Selected target MIME types">
          {value.map((type) => (
            <li key={type} className="chip">
              <span>{type}</span>
              <button type="button" className="chip-remove" aria-label={`Remove ${type}`} onClick={() => onChange(value.filter((t) => t !== type))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="chips-empty">No target type selected.</p>
      )}
      <div className="chip-summary">
        <span>
          {value.length} {value.length === 1 ? "type" : "types"} selected
        </span>
        {value.length > 0 ? (
          <button type="button" className="link-button" onClick={() => onChange([])}>
            Remove all
          </button>
        ) : null}
      </div>
      <div className="inline-add">
        <label htmlFor={`${id}-add`} className="visually-hidden">
          Add a MIME type
        </label>
        <input
          id={`${id}-add`}
          type="text"
          value={draft}
          placeholder="Add a type, e.g. text/tab-separated-values"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={draftError ? true : undefined}
          aria-describedby={draftError ? `${id}-add-error` : undefined}
          onChange={(event) => {
            setDraft(event.target.value);
            setDraftError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              addDraft();
            }
          }}
        />
        <button type="button" className="button" onClick={addDraft}>
          Add
        </button>
      </div>
      {draftError ? (
        <p id={`${id}-add-error`} className="field-error" role="alert">
          {draftError}
        </p>
      ) : null}
      <FieldError field={field} error={error} />
    </fieldset>
  );
}
