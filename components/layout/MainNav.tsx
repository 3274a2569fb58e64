"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Crawls", isCurrent: (path: string) => path === "/" || (/^\/crawls\/\d+/.test(path)) },
  { href: "/crawls/new", label: "New crawl", isCurrent: (path: string) => path === "/crawls/new" },
];

/** Workers (host names, PIDs) and Settings are the admin's; the API refuses them to members too. */
const ADMIN_LINKS = [
  { href: "/workers", label: "Workers", isCurrent: (path: string) => path.startsWith("/workers") },
  { href: "/settings", label: "Settings", isCurrent: (path: string) => path.startsWith("/settings") },
];

export function MainNav({ isAdmin }: { isAdmin: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="main-nav">
      {[...LINKS, ...(isAdmin ? ADMIN_LINKS : [])].map((link) => (
        <Link key={link.href} href={link.href} aria-current={link.isCurrent(pathname) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
