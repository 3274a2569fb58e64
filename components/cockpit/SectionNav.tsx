"use client";

import { useEffect, useState } from "react";

export interface CockpitSection {
  id: string;
  label: string;
  /** Shown only while its panel is on the page (panels that depend on the crawl's state or a query). */
  optional?: boolean;
}

const present = (sections: readonly CockpitSection[]) => sections.filter((section) => !section.optional || document.getElementById(section.id) !== null).map((section) => section.id);

/**
 * The cockpit's section menu: a link to every panel on the page. Panels that come and go (What
 * changed, Repeat, Replay) are watched in the DOM, so the menu never links to a missing panel
 * and never misses one that appeared.
 */
export function SectionNav({ sections, containerId }: { sections: readonly CockpitSection[]; containerId: string }) {
  const [shown, setShown] = useState<string[]>(() => sections.filter((section) => !section.optional).map((section) => section.id));
  useEffect(() => {
    const container = document.getElementById(containerId);
    if (!container) return;
    const update = () => {
      const next = present(sections);
      setShown((current) => (current.join() === next.join() ? current : next));
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(container, { childList: true });
    return () => observer.disconnect();
  }, [sections, containerId]);
  return (
    <nav className="section-nav" aria-label="Cockpit sections">
      {sections
        .filter((section) => shown.includes(section.id))
        .map((section) => (
          <a key={section.id} href={`#${section.id}`}>
            {section.label}
          </a>
        ))}
    </nav>
  );
}
