// A small MSP board and its closed tickets for the unit tests. "Desk Phone / VoIP" has no ticket on
// purpose (it must still be proposable from its names), and a second board holds "Office Move".
import type { TBoardCatalogue, TTrainingTicket } from '../src/types';

export const BOARD: TBoardCatalogue = {
  boards: [
    {
      id: 'b-help',
      name: 'Help Desk',
      types: [
        {
          id: 't-email',
          name: 'Email',
          subtypes: [
            { id: 's-outlook', name: 'Outlook Not Working', priorityId: 'p2', tier: 'Tier1', slaHours: 4 },
            { id: 's-bounce', name: 'Mail Delivery / Bounce', priorityId: 'p2', tier: 'Tier2', slaHours: 4 },
          ],
        },
        {
          id: 't-hardware',
          name: 'Hardware',
          subtypes: [
            { id: 's-printer', name: 'Printer / Scanner', priorityId: 'p3', tier: 'Tier1', slaHours: 8 },
            { id: 's-laptop', name: 'Laptop / Desktop', priorityId: 'p3', tier: 'Tier1', slaHours: 8 },
          ],
        },
        {
          id: 't-network',
          name: 'Network',
          subtypes: [
            { id: 's-wifi', name: 'Wi-Fi', priorityId: 'p3', tier: 'Tier1', slaHours: 8 },
            { id: 's-vpn', name: 'VPN / Remote Access', priorityId: 'p2', tier: 'Tier2', slaHours: 4 },
          ],
        },
        { id: 't-phones', name: 'Phones', subtypes: [{ id: 's-phone', name: 'Desk Phone / VoIP', priorityId: 'p3', tier: 'Tier1', slaHours: 8 }] },
      ],
    },
    { id: 'b-projects', name: 'Projects', types: [{ id: 't-project', name: 'Project', subtypes: [{ id: 's-move', name: 'Office Move' }] }] },
  ],
};

const T = (typeName: string, subtypeName: string, summary: string, description: string): TTrainingTicket => ({ summary, description, typeName, subtypeName });

export const TICKETS: TTrainingTicket[] = [
  T('Email', 'Outlook Not Working', 'outlook keeps crashing', 'Outlook crashes every time I open it, I cannot read my email'),
  T('Email', 'Outlook Not Working', 'outlook not opening', 'Outlook will not open, stuck on loading profile'),
  T('Email', 'Outlook Not Working', 'outlook asks for password', 'Outlook keeps asking for my password over and over'),
  T('Email', 'Outlook Not Working', 'inbox not updating', 'my Outlook inbox is not updating, new email does not show'),
  T('Email', 'Outlook Not Working', 'outlook search broken', 'search in Outlook finds nothing anymore'),
  T('Email', 'Outlook Not Working', 'outlook disconnected', 'Outlook says disconnected at the bottom and no mail comes in'),
  T('Email', 'Mail Delivery / Bounce', 'email bounced back', 'I got an undeliverable bounce message when emailing a customer'),
  T('Email', 'Mail Delivery / Bounce', 'customer not receiving our emails', 'our emails to the customer bounce with a delivery failure'),
  T('Email', 'Mail Delivery / Bounce', 'mail stuck in quarantine', 'an email from a vendor landed in quarantine and never arrived'),
  T('Email', 'Mail Delivery / Bounce', 'delivery failure notice', 'delivery has failed to these recipients, message rejected'),
  T('Email', 'Mail Delivery / Bounce', 'emails going to junk', 'external emails are going to junk or not arriving at all'),
  T('Hardware', 'Printer / Scanner', 'printer offline', 'the printer on the second floor shows offline and nothing prints'),
  T('Hardware', 'Printer / Scanner', 'paper jam', 'the printer says paper jam but there is no paper stuck'),
  T('Hardware', 'Printer / Scanner', 'scanner not sending to email', 'scan to email on the copier stopped working'),
  T('Hardware', 'Printer / Scanner', 'printing blank pages', 'my print jobs come out as blank pages'),
  T('Hardware', 'Printer / Scanner', 'toner low', 'printer toner is low and prints are faded'),
  T('Hardware', 'Printer / Scanner', 'cannot add printer', 'I cannot add the office printer to my laptop'),
  T('Hardware', 'Laptop / Desktop', 'laptop will not turn on', 'my laptop will not power on even when plugged in'),
  T('Hardware', 'Laptop / Desktop', 'computer very slow', 'my desktop computer is extremely slow and the fan is loud'),
  T('Hardware', 'Laptop / Desktop', 'laptop screen cracked', 'I dropped my laptop and the screen is cracked'),
  T('Hardware', 'Laptop / Desktop', 'battery not charging', 'laptop battery is not charging anymore'),
  T('Hardware', 'Laptop / Desktop', 'keyboard keys stuck', 'several keys on my laptop keyboard do not work'),
  T('Network', 'Wi-Fi', 'wifi keeps dropping', 'the office wifi keeps dropping every few minutes'),
  T('Network', 'Wi-Fi', 'cannot connect to wireless', 'my laptop cannot connect to the wireless network, wrong password'),
  T('Network', 'Wi-Fi', 'guest wifi down', 'the guest wifi in the lobby is not working'),
  T('Network', 'Wi-Fi', 'slow wifi in conference room', 'wifi signal is very weak in the conference room'),
  T('Network', 'Wi-Fi', 'wifi not showing', 'the company wifi network does not show up in the list'),
  T('Network', 'VPN / Remote Access', 'vpn will not connect', 'the VPN client fails to connect from home'),
  T('Network', 'VPN / Remote Access', 'remote desktop fails', 'I cannot remote desktop into my office computer from home'),
  T('Network', 'VPN / Remote Access', 'vpn disconnects', 'the VPN disconnects every hour when working remotely'),
  T('Network', 'VPN / Remote Access', 'vpn certificate error', 'VPN says certificate error when connecting remotely'),
  T('Network', 'VPN / Remote Access', 'need vpn access', 'new remote worker needs VPN access to the office'),
];
