grep -o -w 'tsc_deadline_timer\|x2apic\|hypervisor\|constant_tsc\|nonstop_tsc\|tsc_known_freq' /proc/cpuinfo | sort | uniq -c
dmesg | grep -i -E 'apic|tsc|clocksource|calibrat|hpet|lpj|bogomips' | head -40
