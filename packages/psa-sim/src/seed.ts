import { loadDemoData } from './demo-data';

export interface TDemoDirectoryCompany {
  id: number;
  name: string;
  identifier: string;
  companyType: string;
  phone: string;
  website: string;
  city: string;
  state: string;
}

export interface TDemoDirectoryContact {
  id: number;
  companyId: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: string;
}

export interface TDemoDirectoryMember {
  id: number;
  identifier: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: string;
  tier: string;
}

export interface TDemoDirectory {
  companies: TDemoDirectoryCompany[];
  contacts: TDemoDirectoryContact[];
  members: TDemoDirectoryMember[];
}

// The ids here are the ids both simulated PSAs serve, so the product's demo seed can reference them directly.
export function demoDirectory(directory?: URL): TDemoDirectory {
  const data = loadDemoData(directory);
  const companies: TDemoDirectoryCompany[] = data.companies.map((company) => ({
    id: company.id,
    name: company.name,
    identifier: company.identifier,
    companyType: company.companyType,
    phone: company.phone,
    website: company.website,
    city: company.city,
    state: company.state,
  }));
  const contacts: TDemoDirectoryContact[] = [];
  for (const company of data.companies) {
    for (const contact of company.contacts) {
      contacts.push({
        id: contacts.length + 1,
        companyId: company.id,
        firstName: contact.firstName,
        lastName: contact.lastName,
        email: contact.email,
        phone: contact.phone,
        title: contact.title,
      });
    }
  }
  const members: TDemoDirectoryMember[] = data.technicians.map((technician) => ({
    id: technician.id,
    identifier: technician.identifier,
    firstName: technician.firstName,
    lastName: technician.lastName,
    email: technician.email,
    phone: technician.phone,
    title: technician.title,
    tier: technician.tier,
  }));
  return { companies, contacts, members };
}
