"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Crawls", isCurrent: (path: string) => path === "/" || (/^\/crawls\/\d+/.test(path)) },
  { href: "/crawls/new", label: "New crawl", isCurrent: (path: string) => path === "/crawls/new" },
];

export function MainNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="main-nav">
      {LINKS.map((link) => (
        <Link key={link.href} href={link.href} aria-current={link.isCurrent(pathname) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
